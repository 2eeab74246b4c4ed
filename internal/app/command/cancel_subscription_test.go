package command

import (
	"context"
	"testing"

	"github.com/a2e-automation/app/domain"
)

func TestCancelSubscriptionAtPeriodEndKeepsAccessAndCredits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.subscribed("cancel@example.com")
	ctx := context.Background()
	if _, err := e.cmd.CancelSubscription.Handle(ctx, SellerSubscription{AccountID: r.AccountID}); err != nil {
		t.Fatal(err)
	}
	a := e.account(r.AccountID)
	if a.SubscriptionStatusAt(e.now()) != domain.StatusCancelling || !a.HasPremiumAccess(e.now()) ||
		a.Balance(e.now()) != domain.MonthlyCredits {
		t.Fatalf("status %q, access %v, balance %d", a.SubscriptionStatusAt(e.now()), a.HasPremiumAccess(e.now()), a.Balance(e.now()))
	}
	// Cancelling twice is refused and records nothing more.
	_, err := e.cmd.CancelSubscription.Handle(ctx, SellerSubscription{AccountID: r.AccountID})
	wantCode(t, err, domain.CodeConflict)
	if n := e.events(r.AccountID)["SubscriptionCancelled"]; n != 1 {
		t.Fatalf("%d SubscriptionCancelled events, want 1", n)
	}
}

func TestCancelSubscriptionWithoutOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.verified("nosub@example.com")
	_, err := e.cmd.CancelSubscription.Handle(context.Background(), SellerSubscription{AccountID: r.AccountID})
	wantCode(t, err, domain.CodeConflict)
	if n := e.events(r.AccountID)["SubscriptionCancelled"]; n != 0 {
		t.Fatalf("%d SubscriptionCancelled events", n)
	}
}
