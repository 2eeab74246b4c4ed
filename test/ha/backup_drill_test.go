package ha_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/devseed"
	"github.com/a2e-automation/app/internal/testing/systest"
)

// TestBackupDrill is make backup-drill: on a cluster of its own, a full
// pgBackRest backup; spends through bin/api; a time T noted with the ledger
// as it stood; more spends; a point-in-time restore to T into a fresh data
// directory; a server and bin/api (with its projector) started on it; then
// the ledger must be exactly as at T (nothing after it, nothing lost), spent
// once per listing and never below zero, and a rebuild of every read table
// must equal the tables. It prints what it restored and each step's time.
func TestBackupDrill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a pg_auto_failover cluster, pgBackRest and bin/api")
	}
	steps := &stepClock{t: t, last: time.Now()}
	ha := startCluster(t)
	steps.done("cluster up (make ha-up)")
	apiBin, projectorBin := systest.BuildBinaries(t)
	env := append(os.Environ(), "APP_ENV=development", "DATABASE_URL="+ha.env["DATABASE_URL"], "RATE_LIMIT_PER_MINUTE=1000000",
		"METRICS_ADDR=127.0.0.1:0", "LOG_LEVEL=warn")
	if out, err := runWith(env, apiBin, "migrate"); err != nil {
		t.Fatalf("migrate: %v\n%s", err, out)
	}
	log, err := os.Create(filepath.Join(t.TempDir(), "processes.log"))
	if err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	api := startProcess(t, apiBin, []string{"-addr", addr, "-with-projector"}, env, log, "listening on")
	pool, err := pgxpool.New(context.Background(), ha.env["DATABASE_URL"])
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var apiKeys []string
	for i := range 3 {
		s, err := devseed.New(context.Background(), pool, devseed.Options{Credits: 1000, Email: fmt.Sprintf("drill-%d-%d@example.com", i, time.Now().UnixNano())})
		if err != nil {
			t.Fatal(err)
		}
		apiKeys = append(apiKeys, s.APIKey)
	}
	httpc := &http.Client{Timeout: 15 * time.Second}
	spendN := func(prefix string, n int) {
		for i := range n {
			a := spend(t, httpc, "http://"+addr, apiKeys[i%len(apiKeys)], attempt{key: fmt.Sprintf("%s-%d", prefix, i)})
			if a.status != http.StatusCreated {
				t.Fatalf("spend %s-%d = %d %s", prefix, i, a.status, a.code)
			}
		}
	}
	spendN("before-backup", 30)
	steps.done("binaries built, bin/api up, 30 spends")

	if out, err := ha.script("ha-backup.sh", "full"); err != nil {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	steps.done("full backup (pgbackrest backup --type=full)")
	// pgBackRest keeps a backup's stop time in whole seconds and restores to
	// T only from a backup that stopped before it: on a fast machine the
	// spends below fit in the backup's last second, and T would fall in it.
	time.Sleep(2 * time.Second)

	spendN("after-backup", 40)
	ctx := context.Background()
	var target time.Time
	var atT ledgerState
	if err := pool.QueryRow(ctx, `SELECT clock_timestamp()`).Scan(&target); err != nil {
		t.Fatal(err)
	}
	atT = readLedger(t, pool)
	time.Sleep(1100 * time.Millisecond) // what follows commits clearly after T
	spendN("after-T", 25)
	after := readLedger(t, pool)
	if after.listings != atT.listings+25 {
		t.Fatalf("ledger after T: %d listings, want %d", after.listings, atT.listings+25)
	}
	// WAL up to here archived: pgbackrest check switches the segment and
	// waits until the repository has it.
	if out, err := ha.script("ha-ctl.sh", "pgbackrest", "--config="+ha.env["HA_PGBACKREST_CONF"], "--stanza="+ha.env["HA_STANZA"], "check"); err != nil {
		t.Fatalf("pgbackrest check: %v\n%s", err, out)
	}
	steps.done("65 spends around T, WAL archived")
	api.Kill()

	// Restore to T into a fresh data directory and start a server on it.
	restored := filepath.Join(ha.dir, "restored")
	port := freePorts(t, 1)
	out, err := ha.script("ha-restore.sh", restored, strconv.Itoa(port), target.UTC().Format("2006-01-02 15:04:05.000000+00"))
	if err != nil {
		t.Fatalf("restore: %v\n%s", err, out)
	}
	t.Cleanup(func() { _, _ = ha.script("ha-ctl.sh", "pg_ctl", "-D", restored, "-m", "immediate", "stop") })
	steps.done("restore to T, recovery, promotion")
	fmt.Printf("backup drill restored:\n%s", out)

	restoredURL := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", port, "a2e")
	renv := append(os.Environ(), "APP_ENV=development", "DATABASE_URL="+restoredURL, "METRICS_ADDR=127.0.0.1:0", "LOG_LEVEL=warn")
	raddr := freeAddr(t)
	startProcess(t, apiBin, []string{"-addr", raddr, "-with-projector"}, renv, log, "listening on")
	res, err := httpc.Get("http://" + raddr + "/readyz")
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("bin/api on the restored server: /readyz %v %v", res, err)
	}
	res.Body.Close()
	rpool, err := pgxpool.New(ctx, restoredURL)
	if err != nil {
		t.Fatal(err)
	}
	defer rpool.Close()
	steps.done("bin/api started on the restored server")

	got := readLedger(t, rpool)
	if got != atT {
		t.Fatalf("the restored ledger is not the ledger at T:\nat T     %+v\nrestored %+v", atT, got)
	}
	var negative int
	systest.WaitCaughtUp(t, rpool)
	if err := rpool.QueryRow(ctx, `SELECT count(*) FROM profiles WHERE credits_available < 0`).Scan(&negative); err != nil || negative != 0 {
		t.Fatalf("%d profiles below zero (%v)", negative, err)
	}
	systest.RequireRebuildEqual(t, rpool, projectorBin, renv)
	steps.done("ledger invariants, rebuild of every read table equal")
	fmt.Printf("backup drill: target %s; %d events, %d listings, last position %d restored (%d listings after T left out)\n%s",
		target.UTC().Format(time.RFC3339Nano), got.events, got.listings, got.position, after.listings-atT.listings, steps)
}

// ledgerState is what the drill compares: the log's size and end, the
// listings in it, and whether every listing was charged exactly once.
type ledgerState struct {
	events, listings, spent int64
	position                int64
}

func readLedger(t *testing.T, pool *pgxpool.Pool) ledgerState {
	t.Helper()
	var s ledgerState
	err := pool.QueryRow(context.Background(), `SELECT count(*), coalesce(max(global_position), 0),
			count(*) FILTER (WHERE event_type = 'ListingRequested'),
			coalesce(sum((coalesce(data->'spent', data)->>'amount')::bigint) FILTER (WHERE event_type = 'CreditsSpent' OR (event_type IN ('ListingRequested', 'VeroCheckPerformed') AND data ? 'spent')), 0)
		FROM events`).Scan(&s.events, &s.position, &s.listings, &s.spent)
	if err != nil {
		t.Fatal(err)
	}
	if s.spent != s.listings {
		t.Fatalf("ledger: %d listings but %d credits spent", s.listings, s.spent)
	}
	return s
}

// stepClock times the drill's steps.
type stepClock struct {
	t     *testing.T
	last  time.Time
	lines string
}

func (c *stepClock) done(step string) {
	now := time.Now()
	line := fmt.Sprintf("  %-55s %s\n", step, now.Sub(c.last).Round(time.Millisecond))
	c.lines += line
	c.last = now
	c.t.Log(line)
}

func (c *stepClock) String() string { return c.lines }
