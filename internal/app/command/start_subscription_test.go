package command

import (
	"context"
	"errors"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/payments"
)

func TestStartSubscriptionActivatesOnPaymentAndRefusesASecond(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.subscribed("subscriber@example.com")
	a := e.account(r.AccountID)
	if a.SubscriptionStatusAt(e.now()) != domain.StatusActive || a.Balance(e.now()) != domain.MonthlyCredits {
		t.Fatalf("status %q, balance %d", a.SubscriptionStatusAt(e.now()), a.Balance(e.now()))
	}
	if n := e.events(r.AccountID)["SubscriptionActivated"]; n != 1 {
		t.Fatalf("%d SubscriptionActivated events", n)
	}
	_, err := e.cmd.StartSubscription.Handle(context.Background(), StartSubscription{AccountID: r.AccountID})
	wantCode(t, err, domain.CodeConflict)
}

func TestStartSubscriptionRefusesAnUnverifiedSeller(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("unverified-sub@example.com")
	_, err := e.cmd.StartSubscription.Handle(context.Background(), StartSubscription{AccountID: r.AccountID})
	if !errors.Is(err, payments.ErrUnverified) {
		t.Fatalf("unverified: %v", err)
	}
	if ev := e.events(r.AccountID); ev["SubscriptionActivated"] != 0 {
		t.Fatalf("events %v", ev)
	}
}
