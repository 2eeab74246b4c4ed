package eventstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// TestSnapshotInTailIsTheRowsUnderReadCommitted pins SnapshotIn's one
// round trip under READ COMMITTED when the head moves between its row read
// and its tail read: the tail is exactly the events after the row's state
// version up to the row's version, whether the move left the saved state
// (the tail's statement finds later events: trimmed) or saved a new one
// (the statement finds another state version: read again, up to the row's
// version). The move is held between the two statements by a lock on
// events that the mover takes first.
func TestSnapshotInTailIsTheRowsUnderReadCommitted(t *testing.T) {
	for _, tc := range []struct {
		name     string
		newState bool
	}{{"the move keeps the saved state", false}, {"the move saves a new state", true}} {
		t.Run(tc.name, func(t *testing.T) {
			pool := testdb.New(t)
			s := eventstore.New(pool)
			ctx := context.Background()
			// Version 1 with a state, version 2 without: the row (2, state version 1).
			if _, err := s.Update(ctx, "s-1", eventstore.UpdateOptions{}, decideAppend("A")); err != nil {
				t.Fatal(err)
			}
			if _, err := appendTx(t, s, "s-1", 1, ev("B", 2)); err != nil {
				t.Fatal(err)
			}

			type read struct {
				snap eventstore.Snapshot
				err  error
			}
			done := make(chan read, 1)
			reader, err := pool.Acquire(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer reader.Release()
			readerPID := reader.Conn().PgConn().PID()
			// Once before, so that its statements are prepared: preparing the
			// tail's would wait for the lock before the row is read.
			warm, err := reader.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.SnapshotIn(ctx, warm, "s-1"); err != nil {
				t.Fatal(err)
			}
			if err := warm.Rollback(ctx); err != nil {
				t.Fatal(err)
			}
			mover, err := pool.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = mover.Rollback(ctx) }()
			if _, err := mover.Exec(ctx, `LOCK TABLE events IN ACCESS EXCLUSIVE MODE`); err != nil {
				t.Fatal(err)
			}

			// The reader's goroutine is done with its connection before the
			// test returns (and releases it), on every path: the mover's
			// rollback unblocks it if the test fails before the commit.
			finished := make(chan struct{})
			defer func() { _ = mover.Rollback(ctx); <-finished }()
			go func() {
				defer close(finished)
				tx, err := reader.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
				if err != nil {
					done <- read{err: err}
					return
				}
				snap, err := s.SnapshotIn(ctx, tx, "s-1")
				_ = tx.Rollback(ctx)
				done <- read{snap, err}
			}()
			// The reader has read the row and waits for events.
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				var waiting bool
				if err := pool.QueryRow(ctx, `SELECT coalesce(bool_or(wait_event_type = 'Lock'), false) FROM pg_stat_activity WHERE pid = $1`, readerPID).Scan(&waiting); err != nil {
					t.Fatal(err)
				}
				if waiting {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the reader never waited for the lock on events")
				}
			}
			// The move: versions 3 and 4, and with newState a state at 4.
			for v := 3; v <= 4; v++ {
				if _, err := mover.Exec(ctx, `INSERT INTO events (global_position, event_id, stream_id, stream_version, event_type, data, recorded_at)
					VALUES (nextval('events_position_seq'), gen_random_uuid(), 's-1', $1, 'C', '{}', now())`, v); err != nil {
					t.Fatal(err)
				}
			}
			move := `UPDATE streams SET version = 4, token = 7 WHERE stream_id = 's-1'`
			if tc.newState {
				move = `UPDATE streams SET version = 4, token = 7, state_version = 4, saved = '{"count":4}', state = NULL, snapshot = NULL WHERE stream_id = 's-1'`
			}
			if _, err := mover.Exec(ctx, move); err != nil {
				t.Fatal(err)
			}
			if err := mover.Commit(ctx); err != nil {
				t.Fatal(err)
			}

			r := <-done
			if r.err != nil {
				t.Fatal(r.err)
			}
			if r.snap.Version != 2 || r.snap.StateVersion != 1 || string(r.snap.State) != `{"count":1}` {
				t.Fatalf("snapshot = %+v (state %s): want the row as it was read, (2, state version 1)", r.snap, r.snap.State)
			}
			if len(r.snap.Tail) != 1 || r.snap.Tail[0].StreamVersion != 2 || r.snap.Tail[0].Type != "B" {
				t.Fatalf("tail = %+v: want exactly version 2", r.snap.Tail)
			}
		})
	}
}
