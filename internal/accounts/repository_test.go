package accounts_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

func newRepo(t testing.TB) (*accounts.Repository, *clock) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	return accounts.NewRepository(eventstore.New(testdb.New(t)), c.Now), c
}

// fundedAccounts registers n accounts on r, each granted credits purchased
// credits.
func fundedAccounts(t *testing.T, r *accounts.Repository, n int, credits int64) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = accountstest.Register(t, r)
		accountstest.Do(t, r, ids[i], accountstest.Grant(credits, domain.SourcePurchase, nil))
	}
	return ids
}

func TestCreateTwiceConflicts(t *testing.T) {
	r, _ := newRepo(t)
	id := accountstest.Register(t, r)
	_, err := r.Create(context.Background(), id, eventstore.UpdateOptions{}, func(_ context.Context, _ accounts.Work, now time.Time) (*domain.Account, error) {
		return domain.Register(id, "other@example.com", domain.APIKeyMaterial{KeyID: "k", Prefix: "p", Hash: "h", Encrypted: "e"}, now)
	})
	if domain.ErrorCode(err) != domain.CodeConflict {
		t.Fatalf("second create: %v, want a conflict", err)
	}
	_, err = r.Update(context.Background(), uuid.NewString(), eventstore.UpdateOptions{}, func(context.Context, pgx.Tx, *domain.Account, time.Time) (any, error) {
		return nil, nil
	})
	if !accounts.IsNotFound(err) {
		t.Fatalf("update of a missing account: %v, want not found", err)
	}
}

// TestNoOverdraft: 50 concurrent spenders on an account holding 100 credits;
// exactly 100 spends succeed and the balance ends at zero.
func TestNoOverdraft(t *testing.T) {
	r, _ := newRepo(t)
	id := accountstest.Register(t, r)
	accountstest.Do(t, r, id, accountstest.Grant(100, domain.SourcePurchase, nil))

	var ok, refused atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for w := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 4 {
				_, err := r.Update(context.Background(), id, eventstore.UpdateOptions{}, func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
					return nil, a.Spend(domain.OperationAPIRequest, fmt.Sprintf("w%d-%d", w, i), now)
				})
				if !tally(err, &ok, &refused, errs) {
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if ok.Load() != 100 || refused.Load() != 100 {
		t.Fatalf("%d spends succeeded and %d were refused, want 100 and 100", ok.Load(), refused.Load())
	}
	a, err := r.Replay(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if b := a.Balance(time.Now()); b != 0 {
		t.Fatalf("balance after the race = %d, want 0", b)
	}
}

// TestExpiryExactlyOnce: the monthly credits' unspent remainder expires as one
// event, however often the sweeper runs.
func TestExpiryExactlyOnce(t *testing.T) {
	r, c := newRepo(t)
	id := accountstest.Register(t, r)
	start := c.Now()
	end := start.Add(30 * 24 * time.Hour)
	accountstest.Do(t, r, id, func(a *domain.Account, now time.Time) error {
		return a.StartOrRenewCycle("sub_1", start, end, domain.MonthlyCredits, now)
	})
	accountstest.Do(t, r, id, accountstest.Grant(10, domain.SourcePurchase, nil))
	for range 3 {
		accountstest.Do(t, r, id, func(a *domain.Account, now time.Time) error { return a.Spend(domain.OperationAPIRequest, "", now) })
	}
	ctx := context.Background()
	expire := command.New(command.Deps{Accounts: r}).ExpireCredits
	if n, err := expire.Handle(ctx, command.ExpireCredits{Limit: 100}); err != nil || n != 0 {
		t.Fatalf("before the cycle ends: visited %d accounts (%v), want 0", n, err)
	}
	c.Set(end.Add(time.Minute))
	for range 3 {
		if _, err := expire.Handle(ctx, command.ExpireCredits{Limit: 100}); err != nil {
			t.Fatal(err)
		}
	}
	history, err := r.History(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var expired []domain.CreditsExpired
	for _, h := range history {
		if e, ok := h.Event.(domain.CreditsExpired); ok {
			expired = append(expired, e)
		}
	}
	if len(expired) != 1 || expired[0].Amount != domain.MonthlyCredits-3 {
		t.Fatalf("expiries = %+v, want one of %d credits", expired, domain.MonthlyCredits-3)
	}
	a, _ := r.Replay(ctx, id)
	if b := a.Balance(c.Now()); b != 10 {
		t.Fatalf("balance after expiry = %d, want the 10 purchased credits", b)
	}
	if got := domain.BalanceAt(history, end.Add(-time.Minute)); got != domain.MonthlyCredits-3+10 {
		t.Fatalf("balance just before the cycle's end = %d", got)
	}
}

func TestSnapshotBehindIsReplayed(t *testing.T) {
	r, _ := newRepo(t)
	id := accountstest.Register(t, r)
	accountstest.Do(t, r, id, accountstest.Grant(5, domain.SourcePurchase, nil))
	// Append a spend behind the snapshot's back, as a raw append would.
	ctx := context.Background()
	pool := r.Store().Pool()
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := r.Replay(ctx, id)
	if err := a.Spend(domain.OperationAPIRequest, "raw", time.Now()); err != nil {
		t.Fatal(err)
	}
	typ, sv, data, _ := domain.EncodeEvent(a.Changes()[0])
	if _, err := r.Store().Append(ctx, tx, domain.StreamID(id), a.Version(), []eventstore.NewEvent{{Type: typ, SchemaVersion: sv, Data: data}}, eventstore.Metadata{}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	var balance int64
	if _, err := r.Update(ctx, id, eventstore.UpdateOptions{}, func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
		balance = a.Balance(now)
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	if balance != 4 {
		t.Fatalf("balance seen by the next command = %d, want 4 (the raw spend replayed)", balance)
	}
}

func TestIdempotentCommandResult(t *testing.T) {
	r, _ := newRepo(t)
	id := accountstest.Register(t, r)
	accountstest.Do(t, r, id, accountstest.Grant(5, domain.SourcePurchase, nil))
	spend := func(hash string) (eventstore.Result, error) {
		return r.Update(context.Background(), id, eventstore.UpdateOptions{IdempotencyKey: "req-1", RequestHash: hash},
			func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
				if err := a.Spend(domain.OperationAPIRequest, "req-1", now); err != nil {
					return nil, err
				}
				return map[string]int64{"creditsRemaining": a.Balance(now)}, nil
			})
	}
	first, err := spend("h")
	if err != nil {
		t.Fatal(err)
	}
	again, err := spend("h")
	if err != nil || !again.Replayed || string(again.Result) != `{"creditsRemaining":4}` || string(first.Result) != string(again.Result) {
		t.Fatalf("retry = %+v %s (%v)", again, again.Result, err)
	}
	if _, err := spend("other"); !errors.Is(err, eventstore.ErrIdempotencyKeyReused) {
		t.Fatalf("reused key with another body: %v", err)
	}
	a, _ := r.Replay(context.Background(), id)
	if a.Balance(time.Now()) != 4 {
		t.Fatalf("a retried spend was charged twice: balance %d", a.Balance(time.Now()))
	}
}

// tally counts a spend's outcome: a success, a refusal for want of credits,
// or (false) an error sent on errs.
func tally(err error, ok, refused *atomic.Int64, errs chan<- error) bool {
	switch {
	case err == nil:
		ok.Add(1)
	case domain.ErrorCode(err) == domain.CodeInsufficientCredits:
		refused.Add(1)
	default:
		errs <- err
		return false
	}
	return true
}
