package eventstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// DecideFunc's contract: after a conflict forces Update to run the decider
// again, the committed decision is the last run's. The first run creates,
// from another connection, the stream it is deciding on, so its own write
// conflicts; the second decides on the moved head and commits.
func TestUpdateCommitsTheDecidersLastRun(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	var runs int
	var last eventstore.Decision
	res, err := s.Update(ctx, "s-last", eventstore.UpdateOptions{IdempotencyKey: "k", RequestHash: "h"},
		func(ctx context.Context, _ pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
			runs++
			if runs == 1 {
				if _, err := s.Update(context.Background(), "s-last", eventstore.UpdateOptions{}, decideAppend("Other")); err != nil {
					return eventstore.Decision{}, fmt.Errorf("the racing command: %w", err)
				}
			}
			result, _ := json.Marshal(map[string]any{"run": runs, "saw": snap.Version})
			last = eventstore.Decision{Events: []eventstore.NewEvent{ev("Mine", runs)}, State: []byte(fmt.Sprintf(`{"run":%d}`, runs)), Result: result}
			return last, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if runs != 2 {
		t.Fatalf("decider ran %d times, want 2 (a conflict, then the commit)", runs)
	}
	if res.Replayed || string(res.Result) != string(last.Result) || res.StreamVersion != 2 {
		t.Fatalf("result %+v (%s), want the last run's %s at version 2", res, res.Result, last.Result)
	}
	recs, err := s.ReadStream(ctx, "s-last", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var mine struct{ N int }
	if len(recs) != 2 || recs[0].Type != "Other" || recs[1].Type != "Mine" || json.Unmarshal(recs[1].Data, &mine) != nil || mine.N != runs {
		t.Fatalf("stream holds %+v; want Other, then the last run's Mine %s", recs, last.Events[0].Data)
	}
	snap, err := s.Snapshot(ctx, "s-last")
	if err != nil {
		t.Fatal(err)
	}
	if string(snap.State) != string(last.State) || snap.StateVersion != 2 {
		t.Fatalf("snapshot %s at %d, want the last run's %s at 2", snap.State, snap.StateVersion, last.State)
	}
}
