package command

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/a2e-automation/app/domain"
)

func TestSetSpendLimitsRecordsThemAndTheNextSpendObeys(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.verified("limits@example.com")
	e.grant(r.AccountID, 10, nil)
	ctx := context.Background()
	got, err := e.cmd.SetSpendLimits.Handle(ctx, SetSpendLimits{AccountID: r.AccountID, Daily: new(int64(1)), Monthly: new(int64(5))})
	if err != nil {
		t.Fatal(err)
	}
	if *got.Daily != 1 || *got.Monthly != 5 || got.SpentToday != 0 || !got.DayResetsAt.After(e.now()) {
		t.Fatalf("limits %+v", got)
	}
	if _, err := e.cmd.CreateListing.Handle(ctx, CreateListing{Spend: e.spend(r, ""), Product: testProduct}); err != nil {
		t.Fatal(err)
	}
	_, err = e.cmd.CreateListing.Handle(ctx, CreateListing{Spend: e.spend(r, ""), Product: testProduct})
	wantCode(t, err, domain.CodeSpendLimitReached)
	if ev := e.events(r.AccountID); ev["SpendLimitsSet"] != 1 || ev[spends] != 1 {
		t.Fatalf("events %v", ev)
	}
	// Setting the same limits again records nothing.
	if _, err := e.cmd.SetSpendLimits.Handle(ctx, SetSpendLimits{AccountID: r.AccountID, Daily: new(int64(1)), Monthly: new(int64(5))}); err != nil {
		t.Fatal(err)
	}
	if ev := e.events(r.AccountID); ev["SpendLimitsSet"] != 1 {
		t.Fatalf("events %v after the same limits again", ev)
	}
}

func TestSetSpendLimitsRefusesAnUnverifiedAccount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("unverified-limits@example.com")
	_, err := e.cmd.SetSpendLimits.Handle(context.Background(), SetSpendLimits{AccountID: r.AccountID, Daily: new(int64(1))})
	if !errors.Is(err, domain.ErrSpendLimitsUnverified) {
		t.Fatalf("unverified: %v", err)
	}
	if ev := e.events(r.AccountID); ev["SpendLimitsSet"] != 0 {
		t.Fatalf("events %v", ev)
	}
}

// limits sets r's spend limits (nil leaves one off).
func (e *env) limits(r Registered, daily, monthly *int64) {
	e.t.Helper()
	if _, err := e.cmd.SetSpendLimits.Handle(context.Background(), SetSpendLimits{AccountID: r.AccountID, Daily: daily, Monthly: monthly}); err != nil {
		e.t.Fatal(err)
	}
}

// spendAtOnce makes n spends of r at once, the i-th through via[i%len(via)]
// (e.cmd when via is empty), and counts those charged and those refused
// with spend_limit_reached by the daily limit, spent to the full. Any other
// answer fails the test.
func (e *env) spendAtOnce(r Registered, n int, limit int64, via ...Commands) (charged, refused int) {
	e.t.Helper()
	if len(via) == 0 {
		via = []Commands{e.cmd}
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		cmds := via[i%len(via)]
		wg.Go(func() {
			_, errs[i] = cmds.CreateListing.Handle(context.Background(), CreateListing{Spend: e.spend(r, ""), Product: testProduct})
		})
	}
	wg.Wait()
	for _, err := range errs {
		var le *domain.SpendLimitError
		switch {
		case err == nil:
			charged++
		case errors.As(err, &le) && le.Period == domain.SpendLimitDaily && le.Limit == limit && le.Spent == limit &&
			domain.ErrorCode(err) == domain.CodeSpendLimitReached:
			refused++
		default:
			e.t.Fatalf("unexpected error: %v", err)
		}
	}
	return charged, refused
}

// 16 spends at once against a daily limit of 10 (with credits for 20):
// exactly 10 are charged and 6 refused with spend_limit_reached, on the
// real database and the spends' own transactions.
func TestSpendLimitHoldsUnderConcurrentSpends(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.verified("limit-race@example.com")
	e.grant(r.AccountID, 20, nil)
	e.limits(r, new(int64(10)), nil)
	if ok, limited := e.spendAtOnce(r, 16, 10); ok != 10 || limited != 6 {
		t.Fatalf("%d charged, %d refused; want 10 and 6", ok, limited)
	}
	a := e.account(r.AccountID)
	if a.Balance(e.now()) != 10 || a.SpendLimits(e.now()).SpentToday != 10 {
		t.Fatalf("balance %d, spent today %d; want 10 and 10", a.Balance(e.now()), a.SpendLimits(e.now()).SpentToday)
	}
	if ev := e.events(r.AccountID); ev[spends] != 10 {
		t.Fatalf("events %v", ev)
	}
}
