package ha_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/replica"
)

// TestReadsFollowTheStandby runs READ_DATABASE_URL's reads on a real
// synchronous standby: a read goes to the standby once it has replayed what
// the primary had committed, so a write is visible to the next read; while
// the standby's replay is paused (a standby behind) the read goes to the
// primary after the bound, and sees the write all the same.
func TestReadsFollowTheStandby(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a pg_auto_failover cluster")
	}
	ha := startCluster(t)
	ctx := context.Background()
	primary, err := pgxpool.New(ctx, ha.env["DATABASE_URL"])
	if err != nil {
		t.Fatal(err)
	}
	defer primary.Close()
	standby, err := pgxpool.New(ctx, ha.env["READ_DATABASE_URL"])
	if err != nil {
		t.Fatal(err)
	}
	defer standby.Close()
	var inRecovery bool
	if err := standby.QueryRow(ctx, `SELECT pg_is_in_recovery()`).Scan(&inRecovery); err != nil || !inRecovery {
		t.Fatalf("READ_DATABASE_URL is not a standby: %v %v", inRecovery, err)
	}
	reads := replica.New(primary, standby, 200*time.Millisecond, nil)
	if _, err := primary.Exec(ctx, `CREATE TABLE spends (n int)`); err != nil {
		t.Fatal(err)
	}
	// read writes n and reads it back from the pool reads picks.
	read := func(n int, want *pgxpool.Pool, where string) {
		t.Helper()
		if _, err := primary.Exec(ctx, `INSERT INTO spends VALUES ($1)`, n); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		p := reads.For(ctx)
		took := time.Since(start)
		var seen int
		if err := p.QueryRow(ctx, `SELECT count(*) FROM spends WHERE n = $1`, n).Scan(&seen); err != nil {
			t.Fatal(err)
		}
		if p != want || seen != 1 {
			t.Fatalf("write %d: read on the %s? %v; the write seen %d times (choice took %s)", n, where, p == want, seen, took)
		}
		t.Logf("write %d read back on the %s (choice took %s)", n, where, took.Round(time.Microsecond))
	}
	read(1, standby, "standby")

	if _, err := standby.Exec(ctx, `SELECT pg_wal_replay_pause()`); err != nil {
		t.Fatal(err)
	}
	read(2, primary, "primary, the standby's replay paused")

	if _, err := standby.Exec(ctx, `SELECT pg_wal_replay_resume()`); err != nil {
		t.Fatal(err)
	}
	read(3, standby, "standby, its replay resumed")
}
