package eventstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// The COMMIT goes out in the write round trip (issue 36), so the check that
// every head moved as expected is the server's (eventstore_expect_rows):
// these tests make a head fail it, as a stream moved or created by someone
// else would, and check that nothing of the batch was committed.

// countEvents is how many events stream has in the log.
func countEvents(t *testing.T, s *eventstore.Store, stream string) int {
	t.Helper()
	var n int
	if err := s.Pool().QueryRow(context.Background(), `SELECT count(*) FROM events WHERE stream_id = $1`, stream).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestMovedHeadCommitsNothing: a decider moves its own stream's head in the
// shared transaction, so the batch's head update finds it at another
// version. The group commits nothing (the server refuses before the
// COMMIT), every batch-mate is then run alone and committed once, and the
// mover's own command fails with a conflict on its stream, never appending.
func TestMovedHeadCommitsNothing(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	for _, stream := range []string{"a", "mover", "c"} {
		if _, err := s.Update(ctx, stream, eventstore.UpdateOptions{}, decideAppend("Init")); err != nil {
			t.Fatal(err)
		}
	}
	mover := func(ctx context.Context, tx pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
		if _, err := tx.Exec(ctx, `UPDATE streams SET version = version + 1 WHERE stream_id = 'mover'`); err != nil {
			return eventstore.Decision{}, err
		}
		return decideAppend("Moved")(ctx, tx, snap)
	}
	outs := s.UpdateMany(ctx, []eventstore.Command{
		{Stream: "a", Opts: eventstore.UpdateOptions{IdempotencyKey: "ka", RequestHash: "h"}, Decide: decideAppend("E")},
		{Stream: "mover", Decide: mover},
		{Stream: "c", Decide: decideAppend("E")},
	})
	if outs[0].Err != nil || outs[2].Err != nil {
		t.Fatalf("batch-mates = %+v, %+v", outs[0], outs[2])
	}
	ce, ok := errors.AsType[*eventstore.ConflictError](outs[1].Err)
	if !ok || ce.Stream != "mover" {
		t.Fatalf("mover = %+v, want a conflict on stream mover", outs[1])
	}
	for stream, want := range map[string]int{"a": 2, "mover": 1, "c": 2} {
		if n := countEvents(t, s, stream); n != want {
			t.Errorf("%s has %d events, want %d", stream, n, want)
		}
	}
	if v, err := s.StreamVersion(ctx, "mover"); err != nil || v != 1 {
		t.Errorf("mover at version %d (%v), want 1: its decider's moves rolled back", v, err)
	}
}

// TestCreatedMeanwhileCommitsNothing: while a group commit decides, another
// transaction creates one of its new streams. The batch's insert of that
// head finds it there; nothing of the batch commits, the batch-mates commit
// alone once, and the late creator's command ends in a conflict on its
// stream.
func TestCreatedMeanwhileCommitsNothing(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	if _, err := s.Update(ctx, "old", eventstore.UpdateOptions{}, decideAppend("Init")); err != nil {
		t.Fatal(err)
	}
	racer := func(ctx context.Context, tx pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
		// On another connection, committed at once: someone else's stream.
		if _, err := s.Pool().Exec(ctx, `INSERT INTO streams (stream_id, version) VALUES ('raced', 0) ON CONFLICT DO NOTHING`); err != nil {
			return eventstore.Decision{}, err
		}
		return decideAppend("E")(ctx, tx, snap)
	}
	outs := s.UpdateMany(ctx, []eventstore.Command{
		{Stream: "old", Decide: decideAppend("E")},
		{Stream: "raced", Decide: racer},
		{Stream: "fresh", Decide: decideAppend("E")},
	})
	if outs[0].Err != nil || outs[2].Err != nil {
		t.Fatalf("batch-mates = %+v, %+v", outs[0], outs[2])
	}
	ce, ok := errors.AsType[*eventstore.ConflictError](outs[1].Err)
	if !ok || ce.Stream != "raced" {
		t.Fatalf("raced = %+v, want a conflict on stream raced", outs[1])
	}
	for stream, want := range map[string]int{"old": 2, "raced": 0, "fresh": 1} {
		if n := countEvents(t, s, stream); n != want {
			t.Errorf("%s has %d events, want %d", stream, n, want)
		}
	}
}

// TestCommittedConnectionsGoBack: a transaction committed in its write
// round trip never sends the ROLLBACK that would end it otherwise; its
// connection still goes back to the pool, outside any transaction, and
// so does one of a refusal, a conflict and a failed statement.
func TestCommittedConnectionsGoBack(t *testing.T) {
	pool := testdb.New(t)
	s := eventstore.New(pool)
	ctx := context.Background()
	broken := func(ctx context.Context, tx pgx.Tx, _ eventstore.Snapshot) (eventstore.Decision, error) {
		_, err := tx.Exec(ctx, `SELECT * FROM no_such_table`)
		return eventstore.Decision{}, err
	}
	for i := range 20 {
		if _, err := s.Update(ctx, "alone", eventstore.UpdateOptions{}, decideAppend("E")); err != nil {
			t.Fatal(err)
		}
		outs := s.UpdateMany(ctx, []eventstore.Command{
			{Stream: "x", Decide: decideAppend("E")},
			{Stream: "y", Decide: refuse},
			{Stream: "z", Decide: broken},
		})
		if outs[0].Err != nil || outs[1].Err == nil || outs[2].Err == nil {
			t.Fatalf("round %d: outcomes = %+v", i, outs)
		}
	}
	if got := pool.Stat().AcquiredConns(); got != 0 {
		t.Fatalf("%d connections still acquired, want 0", got)
	}
	// Every idle connection is outside a transaction: one that was left in
	// one would see this row's count from before its snapshot, or fail.
	var inTx int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
		WHERE datname = current_database() AND state LIKE 'idle in transaction%'`).Scan(&inTx); err != nil {
		t.Fatal(err)
	}
	if inTx != 0 {
		t.Fatalf("%d connections idle in a transaction, want 0", inTx)
	}
	if n := countEvents(t, s, "x"); n != 20 {
		t.Fatalf("x has %d events, want 20", n)
	}
}

// roundTrips counts what a pool sends: batches, and statements on their own.
type roundTrips struct {
	batches, queries atomic.Int64
}

func (r *roundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	r.queries.Add(1)
	return ctx
}
func (r *roundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (r *roundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	r.batches.Add(1)
	return ctx
}
func (r *roundTrips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (r *roundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

// TestGroupCommitOfSpendsTakesTwoRoundTrips: a group commit of commands that
// each append two events, as listing spends did before a spend was one event
// (TestGroupCommitOfOneEventSpendsTakesTwoRoundTrips), once the store has seen one
// such batch, sends two batches and nothing else: BEGIN, the locks, the
// replays and every position it needs; then the writes and the COMMIT. Its
// events get distinct positions, in order, and read back whole.
func TestGroupCommitOfSpendsTakesTwoRoundTrips(t *testing.T) {
	ctx := context.Background()
	s, trips := tracedStore(t)
	two := func(_ context.Context, _ pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
		return eventstore.Decision{
			Events: []eventstore.NewEvent{ev("CreditsSpent", int(snap.Version)+1), ev("ListingRequested", int(snap.Version)+2)},
			State:  []byte(`{}`),
			Result: []byte(`{}`),
		}, nil
	}
	batch := func(round int) []eventstore.Command {
		var cmds []eventstore.Command
		for _, stream := range []string{"a", "b", "c", "d"} {
			key := fmt.Sprintf("%s-%d", stream, round)
			cmds = append(cmds, eventstore.Command{Stream: stream, Opts: eventstore.UpdateOptions{IdempotencyKey: key, RequestHash: key}, Decide: two})
		}
		return cmds
	}
	var last int64
	for round := range 3 {
		trips.batches.Store(0)
		trips.queries.Store(0)
		for i, o := range s.UpdateMany(ctx, batch(round)) {
			r := o.Result
			if o.Err != nil || r.StreamVersion != int64(2*round+2) || r.LastPosition != r.FirstPosition+1 || r.FirstPosition <= last {
				t.Fatalf("round %d, command %d = %+v (after position %d)", round, i, o, last)
			}
			last = r.LastPosition
		}
		b, q := trips.batches.Load(), trips.queries.Load()
		if round == 0 && (b != 3 || q != 0) {
			// It learns from this one: one position per command drawn with
			// the locks, the other four after deciding.
			t.Errorf("first group commit: %d batches and %d statements, want 3 and 0", b, q)
		}
		if round > 0 && (b != 2 || q != 0) {
			t.Errorf("group commit %d: %d batches and %d statements, want 2 and 0", round, b, q)
		}
	}
	all, err := s.ReadAll(ctx, 0, 100)
	if err != nil || len(all) != 24 {
		t.Fatalf("the log: %d events (%v), want 24", len(all), err)
	}
}

// TestGroupCommitOfOneEventSpendsTakesTwoRoundTrips: a group commit of
// commands that each append one event, as listing and VeRO spends do since
// a spend is one event, sends two batches from the first; after a batch of
// two-event commands (drawHint 2) it draws two per command once, leaving
// gaps, and learns one again: two batches throughout, no more gaps.
func TestGroupCommitOfOneEventSpendsTakesTwoRoundTrips(t *testing.T) {
	ctx := context.Background()
	s, trips := tracedStore(t)
	decide := func(n int) eventstore.DecideFunc {
		return func(_ context.Context, _ pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
			var evs []eventstore.NewEvent
			for i := range n {
				evs = append(evs, ev("ListingRequested", int(snap.Version)+1+i))
			}
			return eventstore.Decision{Events: evs, State: []byte(`{}`), Result: []byte(`{}`)}, nil
		}
	}
	batch := func(round, events int) []eventstore.Command {
		var cmds []eventstore.Command
		for _, stream := range []string{"a", "b", "c", "d"} {
			key := fmt.Sprintf("%s-%d", stream, round)
			cmds = append(cmds, eventstore.Command{Stream: stream, Opts: eventstore.UpdateOptions{IdempotencyKey: key, RequestHash: key}, Decide: decide(events)})
		}
		return cmds
	}
	var last int64
	for round, c := range []struct {
		events     int
		batches    int64
		contiguous bool // positions follow the last batch's with no gap
	}{
		{1, 2, true},  // one drawn per command with the locks, as the store starts
		{1, 2, true},  // and again
		{2, 3, true},  // two events: one drawn with the locks, the rest after deciding
		{1, 2, true},  // draws two per command (the last batch's mean), uses one:
		{1, 2, false}, // the next starts after the gaps it left
		{1, 2, true},  // and drew one per command: back to no gaps
	} {
		trips.batches.Store(0)
		trips.queries.Store(0)
		for i, o := range s.UpdateMany(ctx, batch(round, c.events)) {
			r := o.Result
			if o.Err != nil || r.LastPosition != r.FirstPosition+int64(c.events-1) || r.FirstPosition <= last ||
				(c.contiguous && i == 0 && r.FirstPosition != last+1) ||
				(!c.contiguous && i == 0 && r.FirstPosition == last+1) { // the gap is there
				t.Fatalf("round %d, command %d = %+v (after position %d)", round, i, o, last)
			}
			last = r.LastPosition
		}
		if b, q := trips.batches.Load(), trips.queries.Load(); b != c.batches || q != 0 {
			t.Errorf("group commit %d: %d batches and %d statements, want %d and 0", round, b, q, c.batches)
		}
	}
}

// tracedStore is a store on a fresh database whose pool counts the batches
// and queries it sends (roundTrips).
func tracedStore(t *testing.T) (*eventstore.Store, *roundTrips) {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(testdb.NewURL(t))
	if err != nil {
		t.Fatal(err)
	}
	trips := &roundTrips{}
	cfg.ConnConfig.Tracer = trips
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return eventstore.New(pool), trips
}

// TestGroupCommitOfOneTakesTwoRoundTrips: a batch of one command (what a
// lane starts when nothing runs and one spend is queued) takes the group's
// two round trips, not Update's BEGIN, lock, draw and writes; its outcome is
// the one Update would give, its replay too.
func TestGroupCommitOfOneTakesTwoRoundTrips(t *testing.T) {
	ctx := context.Background()
	s, trips := tracedStore(t)
	one := func(_ context.Context, _ pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
		return eventstore.Decision{Events: []eventstore.NewEvent{ev("CreditsSpent", int(snap.Version)+1)}, State: []byte(`{}`), Result: []byte(`{"n":1}`)}, nil
	}
	for round := range 3 {
		trips.batches.Store(0)
		trips.queries.Store(0)
		key := fmt.Sprintf("k-%d", min(round, 1)) // rounds 1 and 2 send the same key: 2 is a replay
		outs := s.UpdateMany(ctx, []eventstore.Command{{Stream: "solo", Opts: eventstore.UpdateOptions{IdempotencyKey: key, RequestHash: key}, Decide: one}})
		want := int64(min(round, 1) + 1)
		if o := outs[0]; o.Err != nil || o.Result.StreamVersion != want || string(o.Result.Result) != `{"n":1}` || o.Result.Replayed != (round == 2) {
			t.Fatalf("round %d: %+v, want version %d", round, o, want)
		}
		if b, q := trips.batches.Load(), trips.queries.Load(); round < 2 && (b != 2 || q != 0) {
			t.Errorf("round %d: %d batches and %d statements, want 2 and 0", round, b, q)
		}
	}
	if all, err := s.ReadAll(ctx, 0, 100); err != nil || len(all) != 2 {
		t.Fatalf("the log: %d events (%v), want 2", len(all), err)
	}
}
