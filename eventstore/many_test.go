package eventstore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testdb"
)

var errRefused = errors.New("refused by the decider")

func refuse(context.Context, pgx.Tx, eventstore.Snapshot) (eventstore.Decision, error) {
	return eventstore.Decision{}, errRefused
}

// TestUpdateManyKeepsEachCommandsOutcome: one transaction carries an
// append, a refusal, a replay, a reused key and a new stream; each gets its
// own answer, only the successes write, and positions follow the batch.
func TestUpdateManyKeepsEachCommandsOutcome(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	for _, stream := range []string{"a", "b", "c", "d"} {
		if _, err := s.Update(ctx, stream, eventstore.UpdateOptions{}, decideAppend("Init")); err != nil {
			t.Fatal(err)
		}
	}
	first, err := s.Update(ctx, "c", eventstore.UpdateOptions{IdempotencyKey: "k1", RequestHash: "h1"}, decideAppend("Keyed"))
	if err != nil {
		t.Fatal(err)
	}

	outs := s.UpdateMany(ctx, []eventstore.Command{
		{Stream: "a", Opts: eventstore.UpdateOptions{IdempotencyKey: "k2", RequestHash: "h2"}, Decide: decideAppend("E")},
		{Stream: "b", Decide: refuse},
		{Stream: "c", Opts: eventstore.UpdateOptions{IdempotencyKey: "k1", RequestHash: "h1"}, Decide: decideAppend("Keyed")},
		{Stream: "d", Opts: eventstore.UpdateOptions{IdempotencyKey: "k1", RequestHash: "other"}, Decide: decideAppend("E")},
		{Stream: "new", Decide: decideAppend("E")},
	})
	if outs[0].Err != nil || outs[0].Result.StreamVersion != 2 || outs[0].Result.FirstPosition == 0 || string(outs[0].Result.Result) != `{"appended":2}` {
		t.Errorf("append = %+v", outs[0])
	}
	if !errors.Is(outs[1].Err, errRefused) {
		t.Errorf("refusal = %+v", outs[1])
	}
	if outs[2].Err != nil || !outs[2].Result.Replayed || outs[2].Result.LastPosition != first.LastPosition || string(outs[2].Result.Result) != string(first.Result) {
		t.Errorf("replay = %+v, first %+v", outs[2], first)
	}
	if outs[3].Err != nil {
		t.Errorf("d has never seen key k1 (keys are per stream): %+v", outs[3])
	}
	if outs[4].Err != nil || outs[4].Result.StreamVersion != 1 {
		t.Errorf("new stream = %+v", outs[4])
	}
	for stream, want := range map[string]int64{"a": 2, "b": 1, "c": 2, "d": 2, "new": 1} {
		if v, err := s.StreamVersion(ctx, stream); err != nil || v != want {
			t.Errorf("%s at version %d (%v), want %d", stream, v, err, want)
		}
	}
	// A replay of the batch's own key answers what the batch answered.
	again, err := s.Update(ctx, "a", eventstore.UpdateOptions{IdempotencyKey: "k2", RequestHash: "h2"}, decideAppend("E"))
	if err != nil || !again.Replayed || again.FirstPosition != outs[0].Result.FirstPosition {
		t.Errorf("replay of the batch's key = %+v, %v", again, err)
	}
	reused := s.UpdateMany(ctx, []eventstore.Command{
		{Stream: "a", Opts: eventstore.UpdateOptions{IdempotencyKey: "k2", RequestHash: "not h2"}, Decide: decideAppend("E")},
		{Stream: "b", Decide: decideAppend("E")},
	})
	if !errors.Is(reused[0].Err, eventstore.ErrIdempotencyKeyReused) || reused[1].Err != nil {
		t.Errorf("reused key beside an append = %+v", reused)
	}
}

// TestUpdateManyFailureNeverFailsBatchMates: a command whose decider breaks
// the transaction (a failing query) takes the batch down; every other
// command is then run on its own and succeeds, exactly once.
func TestUpdateManyFailureNeverFailsBatchMates(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	broken := func(ctx context.Context, tx pgx.Tx, _ eventstore.Snapshot) (eventstore.Decision, error) {
		_, err := tx.Exec(ctx, `SELECT * FROM no_such_table`)
		return eventstore.Decision{}, err
	}
	outs := s.UpdateMany(ctx, []eventstore.Command{
		{Stream: "x", Decide: decideAppend("E")},
		{Stream: "y", Decide: broken},
		{Stream: "z", Opts: eventstore.UpdateOptions{IdempotencyKey: "k", RequestHash: "h"}, Decide: decideAppend("E")},
	})
	if outs[0].Err != nil || outs[2].Err != nil || outs[1].Err == nil {
		t.Fatalf("outcomes = %+v", outs)
	}
	var n int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d events (%v), want 2: one per successful command", n, err)
	}
}
