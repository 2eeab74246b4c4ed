package query

import (
	"context"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// The query answers the limits and the day's and month's spending the next
// spend is decided on, from the account's snapshot on the real database.
func TestSpendLimitsReadsTheAccountsState(t *testing.T) {
	now := time.Date(2026, time.March, 10, 15, 0, 0, 0, time.UTC)
	repo := accounts.NewRepository(eventstore.New(testdb.New(t)), func() time.Time { return now })
	id := accountstest.Register(t, repo)
	accountstest.Do(t, repo, id, func(a *domain.Account, now time.Time) error { return a.VerifyEmail(now) })
	accountstest.Do(t, repo, id, accountstest.Grant(10, domain.SourcePurchase, nil))
	accountstest.Do(t, repo, id, func(a *domain.Account, now time.Time) error {
		return a.SetSpendLimits(new(int64(5)), nil, now)
	})
	for range 2 {
		accountstest.Do(t, repo, id, func(a *domain.Account, now time.Time) error { return a.Spend(domain.OperationAPIRequest, "r", now) })
	}
	got, err := NewSpendLimits(repo, repo.Now).Handle(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Daily == nil || *got.Daily != 5 || got.Monthly != nil || got.SpentToday != 2 || got.SpentThisMonth != 2 ||
		!got.DayResetsAt.Equal(time.Date(2026, time.March, 11, 0, 0, 0, 0, time.UTC)) ||
		!got.MonthResetsAt.Equal(time.Date(2026, time.April, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("spend limits %+v", got)
	}
}
