package eventstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// TestGroupCommitWritesEachColumnAsDecided: a group commit's array columns
// (the heads' states and wake-ups, the events' data, the keys' results)
// carry each command's own value, a nil one as NULL where NULL means
// something (a head's state kept, no wake-up, no result), for new and
// existing streams alike.
func TestGroupCommitWritesEachColumnAsDecided(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	wake := time.Date(2031, 5, 6, 7, 8, 9, 123456000, time.UTC)
	decide := func(state, result []byte, wakeAt *time.Time, data string) eventstore.DecideFunc {
		return func(context.Context, pgx.Tx, eventstore.Snapshot) (eventstore.Decision, error) {
			return eventstore.Decision{Events: []eventstore.NewEvent{{Type: "E", Data: []byte(data)}}, State: state, Result: result, WakeAt: wakeAt}, nil
		}
	}
	for _, st := range []string{"old-1", "old-2"} {
		if _, err := s.Update(ctx, st, eventstore.UpdateOptions{}, decide([]byte(`"first"`), nil, &wake, `{"n":0}`)); err != nil {
			t.Fatal(err)
		}
	}
	cmds := []eventstore.Command{
		{Stream: "old-1", Opts: eventstore.UpdateOptions{IdempotencyKey: "k1", RequestHash: "h1"}, Decide: decide(nil, []byte(`{"r":1}`), nil, `{"n":1}`)},
		{Stream: "old-2", Opts: eventstore.UpdateOptions{IdempotencyKey: "k2", RequestHash: "h2"}, Decide: decide([]byte(`"second"`), nil, &wake, `{"n":2}`)},
		{Stream: "new-3", Opts: eventstore.UpdateOptions{IdempotencyKey: "k3", RequestHash: "h3"}, Decide: decide(nil, []byte(`{"r":3}`), &wake, `{"n":3}`)},
		{Stream: "new-4", Decide: decide([]byte(`"fourth"`), nil, nil, `{"n":4}`)},
	}
	for i, o := range s.UpdateMany(ctx, cmds) {
		if o.Err != nil {
			t.Fatalf("command %d: %v", i, o.Err)
		}
	}
	want := map[string]struct {
		saved, data, result string
		wake                bool
	}{
		"old-1": {saved: `"first"`, data: `{"n": 1}`, result: `{"r":1}`},
		"old-2": {saved: `"second"`, data: `{"n": 2}`, wake: true},
		"new-3": {data: `{"n": 3}`, result: `{"r":3}`, wake: true},
		"new-4": {saved: `"fourth"`, data: `{"n": 4}`},
	}
	for st, w := range want {
		var saved, result []byte
		var wakeAt *time.Time
		var data string
		var savedNull, resultNull bool
		if err := s.Pool().QueryRow(ctx, `SELECT s.saved, s.wake_at, e.data::text, k.result, s.saved IS NULL, k.result IS NULL
			FROM streams s JOIN events e ON e.stream_id = s.stream_id AND e.stream_version = s.version
			LEFT JOIN idempotency_keys k ON k.stream_id = s.stream_id
			WHERE s.stream_id = $1`, st).Scan(&saved, &wakeAt, &data, &result, &savedNull, &resultNull); err != nil {
			t.Fatalf("%s: %v", st, err)
		}
		if string(saved) != w.saved || data != w.data || string(result) != w.result || (wakeAt != nil) != w.wake || (wakeAt != nil && !wakeAt.Equal(wake)) {
			t.Errorf("%s: saved %q, data %s, result %q, wake_at %v; want %+v", st, saved, data, result, wakeAt, w)
		}
		// A nil state or result is NULL, not empty bytes: an empty saved
		// state would be handed to the next decider as a state.
		if savedNull != (w.saved == "") || resultNull != (w.result == "") {
			t.Errorf("%s: saved NULL %v, result NULL %v; want %+v", st, savedNull, resultNull, w)
		}
	}
}
