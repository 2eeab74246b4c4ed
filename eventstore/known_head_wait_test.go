package eventstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// A command whose Known head was current when it was sent, but whose lock
// waited behind another transaction that moved the head, is given the new
// head whole (not Current): the lock's row is the one the other
// transaction committed (READ COMMITTED re-reads a row it waited for and
// computes the select list from that version), so the known-head
// comparison sees the new version and token. Both for a writer that saved
// a state and for one that left the saved state behind (a spend's usual
// write); by a group commit and by Update.
func TestKnownHeadMovedWhileTheLockWaitedIsGivenWhole(t *testing.T) {
	for _, tc := range []struct {
		name           string
		writerNoState  bool
		group          bool
		wantState      string
		wantStateVer   int64
		wantTailLength int
	}{
		{"group commit after a write with its state", false, true, `{"count":2}`, 2, 0},
		{"group commit after a write that kept the saved state", true, true, `{"count":1}`, 1, 1},
		{"update after a write that kept the saved state", true, false, `{"count":1}`, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := eventstore.New(testdb.New(t))
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			first, err := s.Update(ctx, "s-1", eventstore.UpdateOptions{}, decideAppend("A"))
			if err != nil {
				t.Fatal(err)
			}
			known := eventstore.Head{Version: first.StreamVersion, Token: first.Token}

			// The writer: holds the stream's lock inside its decider until
			// released, then appends one event.
			entered, release := make(chan struct{}), make(chan struct{})
			type written struct {
				res eventstore.Result
				err error
			}
			writer := make(chan written, 1)
			go func() {
				var seen eventstore.Snapshot
				decide := seeing(&seen, tc.writerNoState)
				res, err := s.Update(ctx, "s-1", eventstore.UpdateOptions{}, func(ctx context.Context, tx pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
					close(entered)
					<-release
					return decide(ctx, tx, snap)
				})
				writer <- written{res, err}
			}()
			<-entered

			// The waiter: sent with the head as it was before the writer.
			var seen eventstore.Snapshot
			waiter := make(chan written, 1)
			go func() {
				if tc.group {
					out := s.UpdateMany(ctx, []eventstore.Command{{Stream: "s-1", Opts: eventstore.UpdateOptions{Known: known}, Decide: seeing(&seen, true)}})
					waiter <- written{out[0].Result, out[0].Err}
					return
				}
				res, err := s.Update(ctx, "s-1", eventstore.UpdateOptions{Known: known}, seeing(&seen, true))
				waiter <- written{res, err}
			}()
			// Wait until the waiter's lock waits for the writer's.
			for deadline := time.Now().Add(10 * time.Second); ; {
				var waiting bool
				if err := s.Pool().QueryRow(ctx, `SELECT coalesce(bool_or(wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE OF s%'), false) FROM pg_stat_activity`).Scan(&waiting); err != nil {
					t.Fatal(err)
				}
				if waiting {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the waiter's lock never waited for the writer's")
				}
				time.Sleep(10 * time.Millisecond)
			}
			close(release)
			w := <-writer
			if w.err != nil {
				t.Fatal(w.err)
			}
			got := <-waiter
			if got.err != nil {
				t.Fatal(got.err)
			}
			if seen.Current || seen.Version != 2 || seen.Token != w.res.Token || seen.Token == known.Token {
				t.Fatalf("after waiting: given %+v, the writer's head %d/%d, known %+v", seen, w.res.StreamVersion, w.res.Token, known)
			}
			if string(seen.State) != tc.wantState || seen.StateVersion != tc.wantStateVer || len(seen.Tail) != tc.wantTailLength {
				t.Fatalf("after waiting: state %q at %d with %d tail events, want %q at %d with %d", seen.State, seen.StateVersion, len(seen.Tail), tc.wantState, tc.wantStateVer, tc.wantTailLength)
			}
			if got.res.StreamVersion != 3 {
				t.Fatalf("the waiter's append: %+v, want version 3", got.res)
			}
			if evs, err := s.ReadStream(ctx, "s-1", 0, 0); err != nil || len(evs) != 3 {
				t.Fatalf("stream holds %d events (%v), want 3", len(evs), err)
			}
		})
	}
}
