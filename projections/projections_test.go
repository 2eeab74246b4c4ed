package projections_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/testing/testdb"
	"github.com/a2e-automation/app/projections"
)

type fixture struct {
	pool      *pgxpool.Pool
	repo      *accounts.Repository
	projector *projections.Projector
}

func newFixture(t testing.TB) *fixture {
	pool := testdb.New(t)
	store := eventstore.New(pool)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	return &fixture{pool: pool, repo: accounts.NewRepository(store, nil), projector: projections.NewProjector(pool, store, log, projections.All()...)}
}

func (f *fixture) register(t testing.TB) string {
	t.Helper()
	id := uuid.NewString()
	_, err := f.repo.Create(context.Background(), id, eventstore.UpdateOptions{}, func(_ context.Context, _ accounts.Work, now time.Time) (*domain.Account, error) {
		return domain.Register(id, "seller-"+id[:8]+"@example.com", domain.APIKeyMaterial{KeyID: "k-" + id, Prefix: "a2e_" + id[:6], Hash: "h-" + id, Encrypted: "enc-" + id}, now)
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func (f *fixture) do(t *testing.T, id string, cmd func(a *domain.Account, now time.Time) error) int64 {
	t.Helper()
	res, err := f.repo.Update(context.Background(), id, eventstore.UpdateOptions{}, func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
		return nil, cmd(a, now)
	})
	if err != nil {
		t.Fatal(err)
	}
	return res.LastPosition
}

// activity gives account id a realistic history and returns the last position.
func (f *fixture) activity(t *testing.T, id string, round int) int64 {
	f.do(t, id, func(a *domain.Account, now time.Time) error {
		if a.IsVerified() {
			return nil
		}
		return a.VerifyEmail(now)
	})
	pay := fmt.Sprintf("pi_%s_%d", id[:8], round)
	f.do(t, id, func(a *domain.Account, now time.Time) error {
		return a.RecordPayment(domain.PaymentRecorded{PaymentID: pay, Kind: domain.PaymentKindCredits, Description: "100 credits", AmountCents: 999, Status: domain.PaymentPaid, Credits: 100}, now)
	})
	f.do(t, id, func(a *domain.Account, now time.Time) error {
		return a.GrantCredits(domain.CreditsGranted{GrantID: "grant-" + pay, Amount: 100, Source: domain.SourcePurchase, Reference: pay}, now)
	})
	start := time.Now().UTC()
	f.do(t, id, func(a *domain.Account, now time.Time) error {
		return a.StartOrRenewCycle("sub_"+id[:8], start.Add(time.Duration(round)*time.Hour), start.Add(time.Duration(round+720)*time.Hour), domain.MonthlyCredits, now)
	})
	for i := range 3 {
		f.do(t, id, func(a *domain.Account, now time.Time) error {
			return a.RequestListing(fmt.Sprintf("l-%d-%d", round, i), "B000TEST01", "https://www.amazon.com/dp/B000TEST01", now)
		})
	}
	f.do(t, id, func(a *domain.Account, now time.Time) error { return a.PerformVeroCheck("v-"+pay, "Nike", true, now) })
	return f.do(t, id, func(a *domain.Account, now time.Time) error {
		return a.RecordPayment(domain.PaymentRecorded{PaymentID: "in_" + pay, Kind: domain.PaymentKindSubscription, Description: "Monthly Plan", AmountCents: 2999, Status: domain.PaymentFailed}, now)
	})
}

// dump returns every row of the read tables, in a stable order
// (DumpReadTables, shared with the package's internal tests).
func dump(t *testing.T, pool *pgxpool.Pool) map[string][]string {
	return projections.DumpReadTables(t, pool)
}

func (f *fixture) run(ctx context.Context) chan error {
	return f.runWith(ctx, projections.RunOptions{PollInterval: 20 * time.Millisecond})
}

func (f *fixture) runWith(ctx context.Context, opts projections.RunOptions) chan error {
	done := make(chan error, 1)
	go func() { done <- f.projector.Run(ctx, opts) }()
	return done
}

// TestStopRestartDuplicatesEqualRebuild: a projector stopped mid-stream and
// restarted, with every message delivered twice, leaves the same read tables
// as a rebuild from zero.
func TestStopRestartDuplicatesEqualRebuild(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	ids := []string{f.register(t), f.register(t), f.register(t)}
	for _, id := range ids {
		f.activity(t, id, 0)
	}

	// First run, three events a batch: stop it as soon as it has applied
	// something, mid-stream.
	runCtx, stop := context.WithCancel(ctx)
	done := f.runWith(runCtx, projections.RunOptions{PollInterval: 20 * time.Millisecond, BatchSize: 3, MaxBatchSize: 3})
	deadline := time.Now().Add(10 * time.Second)
	for {
		var applied int
		_ = f.pool.QueryRow(ctx, `SELECT count(*) FROM projection_watermarks WHERE position > 0`).Scan(&applied)
		if applied > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	stop()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	var head, minWatermark int64
	if err := f.pool.QueryRow(ctx, `SELECT (SELECT max(global_position) FROM events),
		(SELECT min(coalesce(w.position, 0)) FROM (VALUES ('profiles'), ('usage_statistics'), ('transactions'), ('usage_daily')) p(name)
			LEFT JOIN projection_watermarks w ON w.projection = p.name)`).Scan(&head, &minWatermark); err != nil {
		t.Fatal(err)
	}
	if minWatermark >= head {
		t.Fatalf("the first run was not stopped mid-stream (watermark %d, head %d)", minWatermark, head)
	}

	// More history while it is down, and every message delivered again.
	var last int64
	for _, id := range ids {
		last = f.activity(t, id, 1)
	}
	if _, err := f.pool.Exec(ctx, `INSERT INTO watermill_account_events (uuid, payload, metadata, transaction_id)
		SELECT uuid, payload, metadata, pg_current_xact_id() FROM watermill_account_events`); err != nil {
		t.Fatal(err)
	}

	runCtx, stop = context.WithCancel(ctx)
	done = f.run(runCtx)
	defer func() { stop(); <-done }()
	if err := f.projector.WaitFor(ctx, last, 20*time.Second); err != nil {
		t.Fatalf("projector did not catch up: %v", err)
	}
	for _, id := range ids {
		if err := f.projector.WaitFor(ctx, f.lastPosition(t, id), 20*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	live := dump(t, f.pool)
	f.checkProfiles(t, ids)

	for _, name := range f.projector.Names() {
		if err := f.projector.Rebuild(ctx, name, 7); err != nil {
			t.Fatal(err)
		}
	}
	rebuilt := dump(t, f.pool)
	if !reflect.DeepEqual(live, rebuilt) {
		t.Fatalf("live tables differ from a rebuild:\nlive    %v\nrebuilt %v", live, rebuilt)
	}
	for _, name := range f.projector.Names() {
		if l, err := f.projector.Lag(ctx, name); err != nil || l.Events != 0 {
			t.Fatalf("lag of %s after catching up = %+v (%v)", name, l, err)
		}
	}
}

func (f *fixture) lastPosition(t *testing.T, id string) int64 {
	var p int64
	if err := f.pool.QueryRow(context.Background(), `SELECT max(global_position) FROM events WHERE stream_id = $1`, domain.StreamID(id)).Scan(&p); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkProfiles compares each profile with the account's own state.
func (f *fixture) checkProfiles(t *testing.T, ids []string) {
	t.Helper()
	ctx := context.Background()
	for _, id := range ids {
		a, err := f.repo.Replay(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var credits, listings, vero int64
		var status string
		var verified bool
		if err := f.pool.QueryRow(ctx, `SELECT credits_available, listings_created, vero_checks, subscription_status, is_verified
			FROM profiles WHERE account_id = $1`, id).Scan(&credits, &listings, &vero, &status, &verified); err != nil {
			t.Fatal(err)
		}
		if credits != a.Balance(time.Now()) || listings != 6 || vero != 2 || status != a.SubscriptionStatus() || !verified {
			t.Fatalf("profile %s: credits %d listings %d vero %d status %s verified %v; account balance %d status %s",
				id, credits, listings, vero, status, verified, a.Balance(time.Now()), a.SubscriptionStatus())
		}
		var paid, failed int
		if err := f.pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE status = 'paid'), count(*) FILTER (WHERE status = 'failed')
			FROM transactions WHERE account_id = $1`, id).Scan(&paid, &failed); err != nil {
			t.Fatal(err)
		}
		if paid != 2 || failed != 2 {
			t.Fatalf("transactions of %s: %d paid, %d failed; want 2 and 2", id, paid, failed)
		}
	}
}

// TestRebuildWhileLive: a rebuild swaps its fresh table in while the live
// projector keeps applying new events; nothing is lost or doubled.
func TestRebuildWhileLive(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	ids := []string{f.register(t), f.register(t)}
	for _, id := range ids {
		f.activity(t, id, 0)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := f.run(runCtx)
	defer func() { stop(); <-done }()

	writes := make(chan error, 1)
	go func() {
		defer close(writes)
		for i := range 20 {
			if _, err := f.repo.Update(ctx, ids[i%2], eventstore.UpdateOptions{}, func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
				return nil, a.Spend(domain.OperationAPIRequest, "", now)
			}); err != nil {
				writes <- err
				return
			}
		}
	}()
	if err := f.projector.Rebuild(ctx, "profiles", 5); err != nil {
		t.Fatal(err)
	}
	if err := <-writes; err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if err := f.projector.WaitFor(ctx, f.lastPosition(t, id), 20*time.Second); err != nil {
			t.Fatal(err)
		}
		a, _ := f.repo.Replay(ctx, id)
		var credits, used int64
		if err := f.pool.QueryRow(ctx, `SELECT credits_available, credits_used FROM profiles WHERE account_id = $1`, id).Scan(&credits, &used); err != nil {
			t.Fatal(err)
		}
		if credits != a.Balance(time.Now()) || used != 3+1+10 {
			t.Fatalf("after a live rebuild %s has credits %d (want %d) and used %d (want 14)", id, credits, a.Balance(time.Now()), used)
		}
	}
}

func TestWaitForTimesOutWithoutProjector(t *testing.T) {
	f := newFixture(t)
	id := f.register(t)
	pos := f.lastPosition(t, id)
	if err := f.projector.WaitFor(context.Background(), pos, 100*time.Millisecond); !errors.Is(err, projections.ErrWaitTimeout) {
		t.Fatalf("WaitFor without a projector: %v, want ErrWaitTimeout", err)
	}
	l, err := f.projector.Lag(context.Background(), "profiles")
	if err != nil || l.Events != 2 {
		t.Fatalf("lag = %+v (%v), want 2 events behind", l, err)
	}
	if _, err := f.projector.CatchUp(context.Background(), "profiles", domain.StreamID(id)); err != nil {
		t.Fatal(err)
	}
	if err := f.projector.WaitFor(context.Background(), pos, time.Second, "profiles"); err != nil {
		t.Fatalf("after a catch-up: %v", err)
	}
}
