package eventstore_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// TestSnapshotBytesReplaceTheJSONBState: a head saved before migration
// 00036 (its state as jsonb) is read as that JSON, by the group commit's
// lock and by Snapshot; the next command's state is stored as the bytes the
// decider returned, byte for byte, and the jsonb column cleared; a jsonb
// state written after that by a binary from before the migration wins.
func TestSnapshotBytesReplaceTheJSONBState(t *testing.T) {
	pool := testdb.New(t)
	s := eventstore.New(pool)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `INSERT INTO events (global_position, event_id, stream_id, stream_version, event_type, data, recorded_at)
		VALUES (nextval('events_position_seq'), gen_random_uuid(), 'old-1', 1, 'Opened', '{}', now())`); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO streams (stream_id, version, state, state_version) VALUES ('old-1', 1, '{"balance": 10}', 1)`); err != nil {
		t.Fatal(err)
	}
	var balance struct{ Balance int }
	snap, err := s.Snapshot(ctx, "old-1")
	if err != nil || snap.Version != 1 || snap.StateVersion != 1 || len(snap.Tail) != 0 {
		t.Fatalf("Snapshot: %+v, %v", snap, err)
	}
	if err := json.Unmarshal(snap.State, &balance); err != nil || balance.Balance != 10 {
		t.Fatalf("Snapshot's state %q: %v", snap.State, err)
	}
	next := []byte(`{"balance":9}`)
	for i, o := range s.UpdateMany(ctx, []eventstore.Command{{Stream: "old-1", Decide: func(_ context.Context, _ pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
		var b struct{ Balance int }
		if err := json.Unmarshal(snap.State, &b); err != nil || b.Balance != 10 {
			t.Errorf("the lock's state %q: %v", snap.State, err)
		}
		return eventstore.Decision{Events: []eventstore.NewEvent{{Type: "Spent", Data: []byte(`{}`)}}, State: next}, nil
	}}}) {
		if o.Err != nil {
			t.Fatalf("command %d: %v", i, o.Err)
		}
	}
	var stored []byte
	var stateNull bool
	if err := pool.QueryRow(ctx, `SELECT saved, state IS NULL AND snapshot IS NULL FROM streams WHERE stream_id = 'old-1'`).Scan(&stored, &stateNull); err != nil {
		t.Fatal(err)
	}
	if string(stored) != string(next) || !stateNull {
		t.Fatalf("stored snapshot %q, state cleared %v; want %q and true", stored, stateNull, next)
	}
	if snap, err = s.Snapshot(ctx, "old-1"); err != nil || string(snap.State) != string(next) || snap.Version != 2 || snap.StateVersion != 2 {
		t.Fatalf("Snapshot after: %+v, %v", snap, err)
	}
	// A binary from before the migration (a rolling upgrade) writes the
	// jsonb state and leaves the snapshot bytes behind: its state is the
	// newer, and is the one read.
	if _, err := pool.Exec(ctx, `INSERT INTO events (global_position, event_id, stream_id, stream_version, event_type, data, recorded_at)
		VALUES (nextval('events_position_seq'), gen_random_uuid(), 'old-1', 3, 'Spent', '{}', now())`); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `UPDATE streams SET version = 3, state = '{"balance": 8}', state_version = 3 WHERE stream_id = 'old-1'`); err != nil {
		t.Fatal(err)
	}
	if snap, err = s.Snapshot(ctx, "old-1"); err != nil || snap.StateVersion != 3 || len(snap.Tail) != 0 {
		t.Fatalf("Snapshot after an old binary's write: %+v, %v", snap, err)
	}
	if err := json.Unmarshal(snap.State, &balance); err != nil || balance.Balance != 8 {
		t.Fatalf("Snapshot's state after an old binary's write %q: %v", snap.State, err)
	}
}

// A head whose state is in the snapshot column (written before migration
// 00038, or since by a binary from before it) is read from there; the next
// command that writes a state writes it to saved and clears snapshot; one
// that writes none leaves either where it is; and a snapshot an older
// binary writes later wins over saved.
func TestSavedReplacesTheSnapshotColumn(t *testing.T) {
	pool := testdb.New(t)
	s := eventstore.New(pool)
	ctx := context.Background()
	event := func(v int) {
		t.Helper()
		if _, err := pool.Exec(ctx, `INSERT INTO events (global_position, event_id, stream_id, stream_version, event_type, data, recorded_at)
			VALUES (nextval('events_position_seq'), gen_random_uuid(), 'old-2', $1, 'Spent', '{}', now())`, v); err != nil {
			t.Fatal(err)
		}
	}
	event(1)
	if _, err := pool.Exec(ctx, `INSERT INTO streams (stream_id, version, snapshot, state_version) VALUES ('old-2', 1, '{"n":1}', 1)`); err != nil {
		t.Fatal(err)
	}
	columns := func() (snapshot, saved []byte) {
		t.Helper()
		if err := pool.QueryRow(ctx, `SELECT snapshot, saved FROM streams WHERE stream_id = 'old-2'`).Scan(&snapshot, &saved); err != nil {
			t.Fatal(err)
		}
		return snapshot, saved
	}
	step := func(state string, wantSeen string, wantTail int) {
		t.Helper()
		out := s.UpdateMany(ctx, []eventstore.Command{
			{Stream: "old-2", Decide: func(_ context.Context, _ pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
				if string(snap.State) != wantSeen || len(snap.Tail) != wantTail {
					t.Errorf("state %s with %d events after it; want %s and %d", snap.State, len(snap.Tail), wantSeen, wantTail)
				}
				d := eventstore.Decision{Events: []eventstore.NewEvent{{Type: "Spent", Data: []byte(`{}`)}}}
				if state != "" {
					d.State = []byte(state)
				}
				return d, nil
			}},
			{Stream: "mate", Decide: decideAppend("M")},
		})
		if out[0].Err != nil || out[1].Err != nil {
			t.Fatal(out[0].Err, out[1].Err)
		}
	}
	step("", `{"n":1}`, 0) // version 2, the snapshot column's state kept
	if snapshot, saved := columns(); string(snapshot) != `{"n":1}` || saved != nil {
		t.Fatalf("after a decision without state: snapshot %s, saved %s", snapshot, saved)
	}
	step(`{"n":3}`, `{"n":1}`, 1) // version 3, written to saved
	if snapshot, saved := columns(); snapshot != nil || string(saved) != `{"n":3}` {
		t.Fatalf("after a state: snapshot %s, saved %s", snapshot, saved)
	}
	// A binary from before 00038 writes snapshot at version 4: it wins.
	event(4)
	if _, err := pool.Exec(ctx, `UPDATE streams SET version = 4, snapshot = '{"n":4}', state_version = 4 WHERE stream_id = 'old-2'`); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Snapshot(ctx, "old-2")
	if err != nil || string(snap.State) != `{"n":4}` || snap.StateVersion != 4 || len(snap.Tail) != 0 {
		t.Fatalf("after an older binary's snapshot: %+v (%v)", snap, err)
	}
	step(`{"n":5}`, `{"n":4}`, 0)
	if snapshot, saved := columns(); snapshot != nil || string(saved) != `{"n":5}` {
		t.Fatalf("after a state: snapshot %s, saved %s", snapshot, saved)
	}
}
