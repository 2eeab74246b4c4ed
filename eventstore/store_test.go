package eventstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

func ev(typ string, n int) eventstore.NewEvent {
	return eventstore.NewEvent{Type: typ, Data: []byte(fmt.Sprintf(`{"n":%d}`, n))}
}

func appendTx(t *testing.T, s *eventstore.Store, stream string, expected int64, events ...eventstore.NewEvent) ([]eventstore.Record, error) {
	t.Helper()
	ctx := context.Background()
	tx, err := s.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	recs, err := s.Append(ctx, tx, stream, expected, events, eventstore.Metadata{Actor: "test"}, time.Time{})
	if err != nil {
		return nil, err
	}
	return recs, tx.Commit(ctx)
}

func TestAppendAndReadStream(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	recs, err := appendTx(t, s, "s-1", 0, ev("A", 1), ev("B", 2))
	if err != nil {
		t.Fatal(err)
	}
	if recs[0].StreamVersion != 1 || recs[1].StreamVersion != 2 || recs[1].GlobalPosition <= recs[0].GlobalPosition {
		t.Fatalf("versions/positions wrong: %+v", recs)
	}
	if _, err := appendTx(t, s, "s-1", 2, ev("C", 3)); err != nil {
		t.Fatal(err)
	}
	got, err := s.ReadStream(ctx, "s-1", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Type != "B" || got[1].Type != "C" || got[1].Metadata.Actor != "test" {
		t.Fatalf("read stream after version 1: %+v", got)
	}
	if v, _ := s.StreamVersion(ctx, "s-1"); v != 3 {
		t.Fatalf("stream version = %d, want 3", v)
	}
}

func TestAppendConflict(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	if _, err := appendTx(t, s, "s-1", 0, ev("A", 1)); err != nil {
		t.Fatal(err)
	}
	for _, expected := range []int64{0, 2, 5} {
		_, err := appendTx(t, s, "s-1", expected, ev("B", 2))
		var ce *eventstore.ConflictError
		if !errors.As(err, &ce) || !errors.Is(err, eventstore.ErrConflict) || ce.Expected != expected {
			t.Fatalf("expected %d: got %v, want a *ConflictError", expected, err)
		}
	}
	got, _ := s.ReadStream(context.Background(), "s-1", 0, 0)
	if len(got) != 1 {
		t.Fatalf("a conflicting append left %d events, want 1", len(got))
	}
}

// decideAppend appends one event of type typ and stores the stream's event
// count as its state.
func decideAppend(typ string) eventstore.DecideFunc {
	return func(_ context.Context, _ pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
		return eventstore.Decision{
			Events: []eventstore.NewEvent{ev(typ, int(snap.Version)+1)},
			State:  []byte(fmt.Sprintf(`{"count":%d}`, snap.Version+1)),
			Result: []byte(fmt.Sprintf(`{"appended":%d}`, snap.Version+1)),
		}, nil
	}
}

func TestIdempotentUpdate(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	opts := eventstore.UpdateOptions{IdempotencyKey: "evt_1", RequestHash: "h1"}
	first, err := s.Update(ctx, "s-1", opts, decideAppend("A"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.Update(ctx, "s-1", opts, decideAppend("A"))
	if err != nil {
		t.Fatal(err)
	}
	if !second.Replayed || second.LastPosition != first.LastPosition || string(second.Result) != string(first.Result) {
		t.Fatalf("replay = %+v, want the first result %+v", second, first)
	}
	if got, _ := s.ReadStream(ctx, "s-1", 0, 0); len(got) != 1 {
		t.Fatalf("same key appended %d events, want 1", len(got))
	}
	_, err = s.Update(ctx, "s-1", eventstore.UpdateOptions{IdempotencyKey: "evt_1", RequestHash: "other"}, decideAppend("A"))
	if !errors.Is(err, eventstore.ErrIdempotencyKeyReused) {
		t.Fatalf("same key, other request: got %v, want ErrIdempotencyKeyReused", err)
	}
	if _, err := s.Update(ctx, "s-1", eventstore.UpdateOptions{IdempotencyKey: "evt_2", RequestHash: "h1"}, decideAppend("A")); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ReadStream(ctx, "s-1", 0, 0); len(got) != 2 {
		t.Fatalf("a new key appended nothing: %d events", len(got))
	}
}

func TestUpdateSeesSnapshotAndTail(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	if _, err := s.Update(ctx, "s-1", eventstore.UpdateOptions{}, decideAppend("A")); err != nil {
		t.Fatal(err)
	}
	// An append without a state leaves the snapshot behind: the next command gets the tail,
	// and the state as the decider wrote it (stored as bytes, not as jsonb: migration 00036).
	if _, err := appendTx(t, s, "s-1", 1, ev("B", 2)); err != nil {
		t.Fatal(err)
	}
	var seen eventstore.Snapshot
	_, err := s.Update(ctx, "s-1", eventstore.UpdateOptions{}, func(ctx context.Context, tx pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
		seen = snap
		return decideAppend("C")(ctx, tx, snap)
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen.Version != 2 || seen.StateVersion != 1 || string(seen.State) != `{"count":1}` || len(seen.Tail) != 1 || seen.Tail[0].Type != "B" {
		t.Fatalf("snapshot = %+v, state %s", seen, seen.State)
	}
	_, err = s.Update(ctx, "s-1", eventstore.UpdateOptions{}, func(_ context.Context, _ pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
		seen = snap
		return eventstore.Decision{}, nil
	})
	if err != nil || seen.StateVersion != 3 || len(seen.Tail) != 0 {
		t.Fatalf("after a command with state: %+v, %v", seen, err)
	}
}

func TestFailedDecisionWritesNothing(t *testing.T) {
	pool := testdb.New(t)
	s := eventstore.New(pool)
	ctx := context.Background()
	boom := errors.New("rule broken")
	_, err := s.Update(ctx, "s-1", eventstore.UpdateOptions{}, func(ctx context.Context, tx pgx.Tx, _ eventstore.Snapshot) (eventstore.Decision, error) {
		if _, err := tx.Exec(ctx, `CREATE TABLE side_effect (x int)`); err != nil {
			return eventstore.Decision{}, err
		}
		return eventstore.Decision{}, boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("got %v, want the decider's error", err)
	}
	var events, messages int
	var sideEffect *string
	_ = pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM watermill_account_events), to_regclass('side_effect')::text`).
		Scan(&events, &messages, &sideEffect)
	if events != 0 || messages != 0 || sideEffect != nil {
		t.Fatalf("a failed command left %d events, %d messages, table %v", events, messages, sideEffect)
	}
}

// Each committed transaction that appends publishes one LogMoved message in
// that transaction: a single command of two events, and a group commit of
// three commands, are one message each, naming the positions they wrote.
func TestPublicationInSameTransaction(t *testing.T) {
	pool := testdb.New(t)
	s := eventstore.New(pool)
	ctx := context.Background()
	res, err := s.Update(ctx, "s-1", eventstore.UpdateOptions{Metadata: eventstore.Metadata{CorrelationID: "corr-1"}},
		func(context.Context, pgx.Tx, eventstore.Snapshot) (eventstore.Decision, error) {
			return eventstore.Decision{Events: []eventstore.NewEvent{ev("A", 1), ev("A", 2)}}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	outs := s.UpdateMany(ctx, []eventstore.Command{
		{Stream: "s-2", Decide: decideAppend("B")}, {Stream: "s-3", Decide: decideAppend("B")}, {Stream: "s-4", Decide: decideAppend("B")},
	})
	for _, o := range outs {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
	}
	rows, err := pool.Query(ctx, `SELECT payload::text FROM watermill_account_events ORDER BY "offset"`)
	if err != nil {
		t.Fatal(err)
	}
	payloads, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if len(payloads) != 2 {
		t.Fatalf("%d messages for two transactions: %v", len(payloads), payloads)
	}
	var single, group eventstore.LogMoved
	if err := json.Unmarshal([]byte(payloads[0]), &single); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(payloads[1]), &group); err != nil {
		t.Fatal(err)
	}
	if single != (eventstore.LogMoved{FirstPosition: res.FirstPosition, LastPosition: res.LastPosition, Events: 2}) {
		t.Fatalf("single command's message = %+v, result %+v", single, res)
	}
	last := max(outs[0].Result.LastPosition, outs[1].Result.LastPosition, outs[2].Result.LastPosition)
	if group.Events != 3 || group.LastPosition != last || group.FirstPosition != last-2 {
		t.Fatalf("group commit's message = %+v, last position %d", group, last)
	}
}

func TestUpcasterHook(t *testing.T) {
	pool := testdb.New(t)
	old := eventstore.New(pool)
	if _, err := appendTx(t, old, "s-1", 0, eventstore.NewEvent{Type: "Renamed", SchemaVersion: 1, Data: []byte(`{"v":1}`)}); err != nil {
		t.Fatal(err)
	}
	s := eventstore.New(pool, eventstore.WithUpcaster(func(r eventstore.Record) (eventstore.Record, error) {
		if r.Type == "Renamed" && r.SchemaVersion == 1 {
			r.Type, r.SchemaVersion, r.Data = "RenamedV2", 2, []byte(`{"v":2}`)
		}
		return r, nil
	}))
	got, err := s.ReadAll(context.Background(), 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Type != "RenamedV2" || got[0].SchemaVersion != 2 || string(got[0].Data) != `{"v":2}` {
		t.Fatalf("upcast record = %+v", got)
	}
}

// TestConcurrentWritersTailingReader: 16 writers append thousands of events
// over many streams, in parallel commits, while a reader tails by global
// position. Meanwhile a deliberately slow committer draws a position, holds
// its transaction open while later positions commit around it, and commits;
// another rolls back. The reader sees every committed event exactly once, in
// increasing positions, the slow one included.
func TestConcurrentWritersTailingReader(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	const writers, perWriter, streams = 16, 200, 64
	total := writers*perWriter + 1 // + the slow committer's event

	var wg sync.WaitGroup
	errs := make(chan error, writers+2)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				stream := fmt.Sprintf("s-%d", (w*perWriter+i)%streams)
				if _, err := s.Update(ctx, stream, eventstore.UpdateOptions{}, decideAppend("E")); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	slowPosition := make(chan int64, 1)
	for _, commit := range []bool{true, false} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(20 * time.Millisecond) // among the others
			tx, err := s.Pool().Begin(ctx)
			if err != nil {
				errs <- err
				return
			}
			defer func() { _ = tx.Rollback(ctx) }()
			stream := "slow-rollback"
			if commit {
				stream = "slow"
			}
			recs, err := s.Append(ctx, tx, stream, 0, []eventstore.NewEvent{ev("Slow", 1)}, eventstore.Metadata{}, time.Time{})
			if err != nil {
				errs <- err
				return
			}
			time.Sleep(400 * time.Millisecond) // later positions commit meanwhile
			if commit {
				slowPosition <- recs[0].GlobalPosition
				if err := tx.Commit(ctx); err != nil {
					errs <- err
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	seen := map[string]bool{}
	last := int64(0)
	finished := false
	for len(seen) < total {
		recs, err := s.ReadAll(ctx, last, 500)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.GlobalPosition <= last {
				t.Fatalf("position %d after %d", r.GlobalPosition, last)
			}
			if seen[r.EventID.String()] {
				t.Fatalf("event %s seen twice", r.EventID)
			}
			if r.StreamID == "slow-rollback" {
				t.Fatalf("a rolled-back event was read: %+v", r)
			}
			seen[r.EventID.String()] = true
			last = r.GlobalPosition
		}
		if len(recs) == 0 {
			if finished {
				break
			}
			select {
			case <-done:
				finished = true
			case err := <-errs:
				t.Fatal(err)
			case <-time.After(2 * time.Millisecond):
			}
		}
	}
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	if len(seen) != total {
		t.Fatalf("reader saw %d events, writers committed %d", len(seen), total)
	}
	// The slow commit really was overtaken: later positions committed first.
	p := <-slowPosition
	var later int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM events WHERE global_position > $1 AND stream_id <> 'slow'`, p).Scan(&later); err != nil {
		t.Fatal(err)
	}
	if later == 0 {
		t.Fatalf("no event was appended after the slow committer's position %d: the test proved nothing", p)
	}
	// Every stream's versions are gapless.
	for i := range streams {
		recs, err := s.ReadStream(ctx, fmt.Sprintf("s-%d", i), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for j, r := range recs {
			if r.StreamVersion != int64(j+1) {
				t.Fatalf("stream s-%d: version %d at index %d", i, r.StreamVersion, j)
			}
		}
	}
}
