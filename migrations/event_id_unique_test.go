package migrations_test

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/testing/testdb"
	"github.com/a2e-automation/app/migrations"
)

// Migration 00037 drops events.event_id's unique index, which no statement
// reads (issue 36, seventh session); its Down builds it again and makes it
// the constraint it was, and the Up drops that again.
func TestMigrationDropsAndRestoresEventIDUnique(t *testing.T) {
	pool := testdb.New(t)
	ctx := context.Background()
	const name = "00037_drop_event_id_unique.sql"
	constraint := func() string {
		t.Helper()
		var def string
		err := pool.QueryRow(ctx, `SELECT coalesce((SELECT pg_get_constraintdef(oid) FROM pg_constraint
			WHERE conrelid = 'events'::regclass AND conname = 'events_event_id_key'), '')`).Scan(&def)
		if err != nil {
			t.Fatal(err)
		}
		return def
	}
	if def := constraint(); def != "" {
		t.Fatalf("after the migrations events has %q", def)
	}
	insert := func(pos int64) error {
		_, err := pool.Exec(ctx, `INSERT INTO events (global_position, event_id, stream_id, stream_version, event_type, data, recorded_at)
			VALUES ($1, '00000000-0000-4000-8000-000000000001', 's-1', $1, 'A', '{}', now())`, pos)
		return err
	}
	if err := insert(1); err != nil {
		t.Fatal(err)
	}

	runSection(t, pool, name, "Down")
	if def := constraint(); def != "UNIQUE (event_id)" {
		t.Fatalf("after the Down events_event_id_key is %q, want UNIQUE (event_id)", def)
	}
	if err := insert(2); err == nil || !strings.Contains(err.Error(), "events_event_id_key") {
		t.Fatalf("a second event with the same id under the Down: %v, want the constraint's violation", err)
	}

	runSection(t, pool, name, "Up")
	if def := constraint(); def != "" {
		t.Fatalf("after the Up again events has %q", def)
	}
	var indexes int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM pg_indexes WHERE tablename = 'events' AND indexdef LIKE '%(event_id)%'`).Scan(&indexes); err != nil {
		t.Fatal(err)
	}
	if indexes != 0 {
		t.Fatalf("%d indexes on events (event_id) after the Up", indexes)
	}
	if err := insert(2); err != nil {
		t.Fatalf("a second event with the same id after the Up: %v", err)
	}
}

// runSection runs a NO TRANSACTION migration's Up or Down statements one
// by one, as goose does (CREATE INDEX CONCURRENTLY refuses a transaction
// block, which a multi-statement Exec would be).
func runSection(t *testing.T, pool *pgxpool.Pool, name, section string) {
	t.Helper()
	b, err := fs.ReadFile(migrations.FS, name)
	if err != nil {
		t.Fatal(err)
	}
	up, down, ok := strings.Cut(string(b), "-- +goose Down")
	if !ok {
		t.Fatalf("%s has no Down section", name)
	}
	sql := up
	if section == "Down" {
		sql = down
	}
	for stmt := range strings.SplitSeq(sql, ";") {
		var lines []string
		for l := range strings.SplitSeq(stmt, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "--") {
				lines = append(lines, l)
			}
		}
		if len(lines) == 0 {
			continue
		}
		if _, err := pool.Exec(context.Background(), strings.Join(lines, " ")); err != nil {
			t.Fatalf("%s %s: %s: %v", name, section, strings.Join(lines, " "), err)
		}
	}
}
