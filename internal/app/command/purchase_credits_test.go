package command

import (
	"context"
	"errors"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/catalog"
	"github.com/a2e-automation/app/internal/payments"
)

func TestPurchaseCreditsPricesTheCheckoutAndGrantsOnPayment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.verified("buyer@example.com")
	ctx := context.Background()
	credits := int64(catalog.MinCustomCredits + 7)
	price, err := catalog.PriceCents(credits)
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.cmd.PurchaseCredits.Handle(ctx, PurchaseCredits{AccountID: r.AccountID, Credits: credits})
	if err != nil {
		t.Fatal(err)
	}
	if p.Credits != credits || p.AmountCents != price || p.ClientSecret == "" || p.PaymentIntentID == "" {
		t.Fatalf("purchase %+v, want %d credits at %d cents", p, credits, price)
	}
	if b := e.account(r.AccountID).Balance(e.now()); b != 0 {
		t.Fatalf("balance %d before payment", b)
	}
	if _, err := e.cmd.ConfirmSimulatedPayment.Handle(ctx, ConfirmSimulatedPayment{AccountID: r.AccountID, ClientSecret: p.ClientSecret, Outcome: payments.OutcomeSucceeded}); err != nil {
		t.Fatal(err)
	}
	if b := e.account(r.AccountID).Balance(e.now()); b != credits {
		t.Fatalf("balance %d after payment, want %d", b, credits)
	}
	// The same payment reported twice grants once.
	if _, err := e.cmd.ConfirmSimulatedPayment.Handle(ctx, ConfirmSimulatedPayment{AccountID: r.AccountID, ClientSecret: p.ClientSecret, Outcome: payments.OutcomeSucceeded}); !errors.Is(err, payments.ErrAlreadyConfirmed) {
		t.Fatalf("second confirmation: %v", err)
	}
	if n := e.events(r.AccountID)["CreditsGranted"]; n != 1 {
		t.Fatalf("%d CreditsGranted events, want 1", n)
	}
}

func TestPurchaseCreditsRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	unverified := e.register("unverified-buyer@example.com")
	_, err := e.cmd.PurchaseCredits.Handle(ctx, PurchaseCredits{AccountID: unverified.AccountID, Credits: catalog.MinCustomCredits})
	if !errors.Is(err, payments.ErrUnverified) {
		t.Fatalf("unverified: %v, want ErrUnverified", err)
	}
	wantCode(t, err, domain.CodeForbidden)

	r := e.verified("small-buyer@example.com")
	for _, credits := range []int64{0, -5, catalog.MinCustomCredits - 1, catalog.MaxCustomCredits + 1} {
		_, err := e.cmd.PurchaseCredits.Handle(ctx, PurchaseCredits{AccountID: r.AccountID, Credits: credits})
		wantCode(t, err, domain.CodeInvalid)
	}
	if n := e.count(`SELECT count(*) FROM provider_requests`) + e.count(`SELECT count(*) FROM payment_intents`); n != 0 {
		t.Fatalf("%d provider requests for refused purchases", n)
	}
}
