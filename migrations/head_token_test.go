package migrations_test

import (
	"context"
	"testing"

	"github.com/a2e-automation/app/internal/testing/testdb"
)

// Migration 00038 adds streams.token and streams.saved (issue 36, eighth
// session); its Down moves a saved state that is the one read back to
// snapshot (not over an older binary's newer snapshot or jsonb state) and
// drops both, and the Up adds them again, empty.
func TestMigrationHeadTokenAndSavedState(t *testing.T) {
	pool := testdb.New(t)
	ctx := context.Background()
	const name = "00038_stream_head_token.sql"
	if _, err := pool.Exec(ctx, `INSERT INTO streams (stream_id, version, state, snapshot, saved, state_version, token) VALUES
		('saved', 3, NULL, NULL, '{"n":3}', 3, 7),
		('older-snapshot', 4, NULL, '{"n":4}', '{"n":3}', 4, 7),
		('older-state', 5, '{"n": 5}', NULL, '{"n":3}', 5, 7),
		('lagging', 9, NULL, NULL, '{"n":6}', 6, 7)`); err != nil {
		t.Fatal(err)
	}
	runSection(t, pool, name, "Down")
	for stream, want := range map[string]string{"saved": `{"n":3}`, "older-snapshot": `{"n":4}`, "older-state": `{"n": 5}`, "lagging": `{"n":6}`} {
		var got []byte
		if err := pool.QueryRow(ctx, `SELECT coalesce(convert_to(state::text, 'UTF8'), snapshot) FROM streams WHERE stream_id = $1`, stream).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s after the Down reads %s, want %s", stream, got, want)
		}
	}
	// A snapshot left behind by spends keeps its state version: the code
	// before 00038 folds the events after it (versions 7 to 9) as its tail.
	var lagVersion, lagState int64
	if err := pool.QueryRow(ctx, `SELECT version, state_version FROM streams WHERE stream_id = 'lagging'`).Scan(&lagVersion, &lagState); err != nil || lagVersion != 9 || lagState != 6 {
		t.Fatalf("lagging after the Down: version %d, state version %d (%v), want 9 and 6", lagVersion, lagState, err)
	}
	var columns int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM information_schema.columns WHERE table_name = 'streams' AND column_name IN ('token', 'saved')`).Scan(&columns); err != nil {
		t.Fatal(err)
	}
	if columns != 0 {
		t.Fatalf("%d of token and saved left after the Down", columns)
	}
	runSection(t, pool, name, "Up")
	var tokens int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM streams WHERE token IS NULL AND saved IS NULL`).Scan(&tokens); err != nil || tokens != 4 {
		t.Fatalf("%d rows without token and saved after the Up again (%v), want 4", tokens, err)
	}
}
