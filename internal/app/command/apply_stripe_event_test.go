package command

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/a2e-automation/app/internal/catalog"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/testing/stripetest"
)

const testWebhookSecret = "whsec_command_test"

// paidCredits is a signed payment_intent.succeeded delivery of a credit
// purchase that r started with PurchaseCredits.
func (e *env) paidCredits(r Registered, credits int64, eventID string) ApplyStripeEvent {
	e.t.Helper()
	p, err := e.cmd.PurchaseCredits.Handle(context.Background(), PurchaseCredits{AccountID: r.AccountID, Credits: credits})
	if err != nil {
		e.t.Fatal(err)
	}
	body := stripetest.Event(eventID, "payment_intent.succeeded", e.now(), stripetest.PaymentIntent{
		ID: p.PaymentIntentID, AccountID: r.AccountID, Credits: credits, AmountCents: p.AmountCents, Succeeded: true,
	}.Object())
	return ApplyStripeEvent{Payload: body, Signature: stripetest.Sign(body, testWebhookSecret)}
}

func TestApplyStripeEventGrantsAPaidPurchaseOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.verified("webhook@example.com")
	ctx := context.Background()
	credits := int64(catalog.MinCustomCredits)
	delivery := e.paidCredits(r, credits, "evt_paid_1")
	got, err := e.cmd.ApplyStripeEvent.Handle(ctx, delivery)
	if err != nil {
		t.Fatal(err)
	}
	if got.EventID != "evt_paid_1" || got.EventType != "payment_intent.succeeded" || got.Ignored != "" || got.AccountID != r.AccountID {
		t.Fatalf("outcome %+v", got)
	}
	if b := e.account(r.AccountID).Balance(e.now()); b != credits {
		t.Fatalf("balance %d, want %d", b, credits)
	}
	// Stripe redelivers: answered from the first result, granted once.
	again, err := e.cmd.ApplyStripeEvent.Handle(ctx, delivery)
	if err != nil || !again.Result.Replayed {
		t.Fatalf("redelivery: %+v, %v", again, err)
	}
	if n := e.events(r.AccountID)["CreditsGranted"]; n != 1 {
		t.Fatalf("%d CreditsGranted events, want 1", n)
	}
}

func TestApplyStripeEventConcurrentRedeliveriesGrantOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.verified("webhook-race@example.com")
	credits := int64(catalog.MinCustomCredits)
	delivery := e.paidCredits(r, credits, "evt_paid_race")
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { _, errs[i] = e.cmd.ApplyStripeEvent.Handle(context.Background(), delivery) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("delivery %d: %v", i, err)
		}
	}
	if b := e.account(r.AccountID).Balance(e.now()); b != credits {
		t.Fatalf("balance %d after %d deliveries, want %d", b, n, credits)
	}
	if c := e.events(r.AccountID)["CreditsGranted"]; c != 1 {
		t.Fatalf("%d CreditsGranted events, want 1", c)
	}
}

func TestApplyStripeEventRefusesABadSignature(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.verified("webhook-forged@example.com")
	delivery := e.paidCredits(r, int64(catalog.MinCustomCredits), "evt_forged")
	delivery.Signature = stripetest.Sign(delivery.Payload, "whsec_someone_else")
	if _, err := e.cmd.ApplyStripeEvent.Handle(context.Background(), delivery); !errors.Is(err, payments.ErrInvalidWebhook) {
		t.Fatalf("forged delivery: %v, want ErrInvalidWebhook", err)
	}
	if b := e.account(r.AccountID).Balance(e.now()); b != 0 {
		t.Fatalf("a forged delivery granted %d credits", b)
	}
}
