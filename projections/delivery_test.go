package projections_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/pgembed"
	"github.com/a2e-automation/app/internal/pgpool"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/internal/testing/testdb"
	"github.com/a2e-automation/app/migrations"
	"github.com/a2e-automation/app/projections"
)

// deliveryBound is how soon an event must reach the read tables beside a
// long transaction elsewhere (docs/event-store.md states it): a poll
// interval and a batch, with room for a busy machine.
const deliveryBound = 5 * time.Second

// A transaction held open in another database of the same server holds
// watermill-sql's delivery back; the projector reads the log itself, so a
// spend still reaches the read tables within the bound.
func TestNoStallBesideALongTransactionElsewhere(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	other, err := pgx.Connect(ctx, testdb.NewURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	long, err := other.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = long.Rollback(ctx) }()
	if _, err := long.Exec(ctx, `SELECT pg_current_xact_id()`); err != nil { // it holds the server's xmin from now on
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	f.run(runCtx)

	id := f.register(t)
	res := accountstest.Do(t, f.repo, id, accountstest.Grant(5, domain.SourcePromo, nil))
	start := time.Now()
	if err := f.projector.WaitFor(ctx, res.LastPosition, 30*time.Second); err != nil {
		t.Fatalf("beside a long transaction: %v after %v", err, time.Since(start))
	}
	if took := time.Since(start); took > deliveryBound {
		t.Fatalf("the grant reached the read tables after %v beside a long transaction; the bound is %v", took, deliveryBound)
	}
}

// A backlog is worked off in log order: an idle account's event, appended
// after a busy account's many, is applied in its turn, after them, by
// batches, not behind a queue of one transaction per event.
func TestBacklogInLogOrder(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	busy := f.register(t)
	var last eventstore.Result
	for range 2 * projections.BatchSize { // several batches
		last = accountstest.Do(t, f.repo, busy, accountstest.Grant(1, domain.SourcePromo, nil))
	}
	idle := f.register(t)
	idleRes := accountstest.Do(t, f.repo, idle, accountstest.Grant(7, domain.SourcePromo, nil))

	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	f.run(runCtx)
	if err := f.projector.WaitFor(ctx, idleRes.LastPosition, 60*time.Second); err != nil {
		t.Fatal(err)
	}
	// In log order: everything before the idle account's event is applied
	// by the time it is.
	if ok, err := f.projector.Passed(ctx, "profiles", last.LastPosition); err != nil || !ok {
		t.Fatalf("the idle account's event was applied before the busy account's earlier ones (%v)", err)
	}
	for _, name := range f.projector.Names() {
		if wm, err := f.projector.Watermark(ctx, name); err != nil || wm < idleRes.LastPosition {
			t.Fatalf("%s watermark %d, %v; want at least %d", name, wm, err, idleRes.LastPosition)
		}
	}
}

// Positions survive a dump restored into a new cluster, whose transaction
// ids start afresh (so watermill-sql's stored offsets point past them): the
// projector goes on from its watermark and applies new events.
func TestProjectorAfterARestoreIntoANewCluster(t *testing.T) {
	ctx := context.Background()
	source := startCluster(t, "source")
	dumpFile := filepath.Join(t.TempDir(), "a2e.dump")
	{
		f := fixtureOn(t, source.url)
		ids := []string{f.register(t), f.register(t)}
		runCtx, stop := context.WithCancel(ctx)
		done := f.run(runCtx)
		for _, id := range ids {
			res := accountstest.Do(t, f.repo, id, accountstest.Grant(3, domain.SourcePromo, nil))
			if err := f.projector.WaitFor(ctx, res.LastPosition, 30*time.Second); err != nil {
				t.Fatal(err)
			}
		}
		stop()
		<-done
		f.pool.Close()
		run(t, filepath.Join(source.srv.BinDir(), "pg_dump"), "-Fc", "-f", dumpFile, "--dbname", source.url)
	}
	target := startCluster(t, "target")
	run(t, filepath.Join(target.srv.BinDir(), "pg_restore"), "--no-owner", "--dbname", target.url, dumpFile)
	// New transactions on the target have ids far below the source's.
	f := fixtureOn(t, target.url)
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	f.run(runCtx)
	id := f.register(t)
	res := accountstest.Do(t, f.repo, id, accountstest.Grant(9, domain.SourcePromo, nil))
	if err := f.projector.WaitFor(ctx, res.LastPosition, 30*time.Second); err != nil {
		t.Fatalf("after a restore into a new cluster: %v", err)
	}
	p, err := projections.NewReader(f.pool).Profile(ctx, id)
	if err != nil || p.CreditsAvailable != 9 {
		t.Fatalf("profile after the restore = %+v, %v", p, err)
	}
	stop()
	live := dump(t, f.pool)
	for _, name := range f.projector.Names() {
		if err := f.projector.Rebuild(ctx, name, 0); err != nil {
			t.Fatal(err)
		}
	}
	if rebuilt := dump(t, f.pool); !reflect.DeepEqual(live, rebuilt) {
		t.Fatalf("after the restore, live tables differ from a rebuild:\nlive    %v\nrebuilt %v", live, rebuilt)
	}
}

type cluster struct {
	srv *pgembed.Server
	url string
}

// startCluster starts a PostgreSQL of the test's own with a database a2e.
func startCluster(t *testing.T, name string) cluster {
	t.Helper()
	ctx := context.Background()
	srv, err := pgembed.Start(ctx, pgembed.Options{DataDir: filepath.Join(t.TempDir(), name), Fast: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop(context.Background()) })
	for _, tool := range []string{"pg_dump", "pg_restore"} {
		if _, err := os.Stat(filepath.Join(srv.BinDir(), tool)); err != nil {
			t.Skipf("%s is not beside this PostgreSQL's server (%s)", tool, srv.BinDir())
		}
	}
	conn, err := pgx.Connect(ctx, srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `CREATE DATABASE a2e`); err != nil {
		t.Fatal(err)
	}
	_ = conn.Close(ctx)
	url, err := pgpool.WithDatabase(srv.URL(), "a2e")
	if err != nil {
		t.Fatal(err)
	}
	return cluster{srv: srv, url: url}
}

// fixtureOn is a fixture on the database at url, migrated.
func fixtureOn(t *testing.T, url string) *fixture {
	t.Helper()
	ctx := context.Background()
	if err := migrations.Apply(ctx, url); err != nil {
		t.Fatal(err)
	}
	pool, err := pgpool.New(ctx, url, pgpool.Options{MaxConns: pgpool.TestMaxConns})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	store := eventstore.New(pool)
	return &fixture{pool: pool, repo: accounts.NewRepository(store, nil),
		projector: projections.NewProjector(pool, store, slog.New(slog.NewTextHandler(io.Discard, nil)), projections.All()...)}
}

func run(t *testing.T, bin string, args ...string) {
	t.Helper()
	if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", filepath.Base(bin), args, err, out)
	}
}

// A rebuild's profiles (one projection, small batches) equal the live
// projector's (all projections in one sweep) for every event the profile
// knows, for accounts whose histories stop at different points.
func TestRebuildEqualsLiveForEveryProfileEvent(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	var ids []string
	for range 3 {
		ids = append(ids, f.register(t))
	}
	for n, id := range ids {
		sub := fmt.Sprintf("sub_%d", n)
		start := time.Now().UTC()
		steps := []func(a *domain.Account, now time.Time) error{
			func(a *domain.Account, now time.Time) error { return a.VerifyEmail(now) },
			func(a *domain.Account, now time.Time) error {
				return a.RotateAPIKey(domain.APIKeyMaterial{KeyID: fmt.Sprintf("k2-%d", n), Prefix: "a2e_new", Hash: fmt.Sprintf("h2-%d", n), Encrypted: "enc2"}, now)
			},
			func(a *domain.Account, now time.Time) error {
				return a.StartOrRenewCycle(sub, start, start.Add(720*time.Hour), domain.MonthlyCredits, now)
			},
			func(a *domain.Account, now time.Time) error {
				return a.GrantCredits(domain.CreditsGranted{Amount: 40, Source: domain.SourcePurchase}, now)
			},
			func(a *domain.Account, now time.Time) error {
				return a.RequestListing("l1", "B000TEST01", "https://www.amazon.com/dp/B000TEST01", now)
			},
			func(a *domain.Account, now time.Time) error { return a.PerformVeroCheck("v1", "Nike", true, now) },
			func(a *domain.Account, now time.Time) error { return a.RecordDownload("windows", "2.4.0", now) },
			func(a *domain.Account, now time.Time) error { return a.Debit(5, "chargeback", now) },
			func(a *domain.Account, now time.Time) error { return a.MarkPastDue(sub, now) },
			func(a *domain.Account, now time.Time) error {
				return a.StartOrRenewCycle(sub, start.Add(720*time.Hour), start.Add(1440*time.Hour), domain.MonthlyCredits, now)
			},
			func(a *domain.Account, now time.Time) error { return a.CancelSubscription(now) },
			func(a *domain.Account, now time.Time) error { return a.EndSubscription(sub, now) },
		}
		for _, step := range steps[:len(steps)-n] { // the accounts stop at different points
			f.do(t, id, step)
		}
	}
	if err := f.projector.Sweep(ctx); err != nil { // the live batches
		t.Fatal(err)
	}
	live := dump(t, f.pool)
	if len(live["profiles"]) != 3 {
		t.Fatalf("profiles = %v", live["profiles"])
	}
	if err := f.projector.Rebuild(ctx, "profiles", 4); err != nil { // in small batches
		t.Fatal(err)
	}
	if rebuilt := dump(t, f.pool); !reflect.DeepEqual(live["profiles"], rebuilt["profiles"]) {
		t.Fatalf("folded rebuild differs from the live profiles:\nlive    %v\nrebuilt %v", live["profiles"], rebuilt["profiles"])
	}
}
