package command_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/testing/stripemock"
	"github.com/a2e-automation/app/internal/testing/stripetest"
)

// The whole recharge in Stripe mode on a real database: the card saved by a
// signed setup_intent.succeeded (delivered twice: saved once), a spend
// crossing the threshold, the worker's off-session charge at stripe-mock,
// and the signed payment_intent.succeeded granting the pack once however
// often it comes, a stale payment_failed after it changing nothing.
func TestRechargeInStripeModeWithSignedWebhooks(t *testing.T) {
	p := payments.NewStripe(payments.StripeConfig{SecretKey: "sk_test_123", PriceID: "price_monthly", APIBase: stripemock.URL(t)})
	e := newEnv(t, p)
	ctx := context.Background()
	id := e.account("stripe-recharge@example.com")
	a := e.load(id)
	co, err := e.svc.StartCardSetup(ctx, a)
	if err != nil || co.ClientSecret == "" {
		t.Fatalf("setup = %+v, %v", co, err)
	}
	setup := setupSucceeded(co.SetupIntentID, id, "pm_card_visa", "4242")
	e.deliver("evt_setup", "setup_intent.succeeded", setup)
	if out := e.deliver("evt_setup", "setup_intent.succeeded", setup); !out.Result.Replayed {
		t.Fatalf("redelivered setup = %+v", out)
	}
	if n := len(e.history(id, "PaymentMethodSaved")); n != 1 {
		t.Fatalf("%d PaymentMethodSaved, want 1", n)
	}
	var pm string
	if err := e.pool.QueryRow(ctx, `SELECT payment_method_id FROM payment_methods WHERE account_id = $1`, id).Scan(&pm); err != nil || pm != "pm_card_visa" {
		t.Fatalf("payment method %q, %v", pm, err)
	}

	pi := e.rechargeBelowThreshold(id, "pi_pack", 500, 10000)
	e.check(id, 99, domain.StatusInactive) // nothing granted before the webhook

	paid := stripetest.PaymentIntent{ID: pi, AccountID: id, Credits: 500, AmountCents: 3999, Succeeded: true}.Object()
	paid["metadata"].(map[string]string)["recharge"] = "recharge-1"
	e.deliver("evt_paid", "payment_intent.succeeded", paid)
	e.deliver("evt_paid", "payment_intent.succeeded", paid)
	e.deliver("evt_paid_again", "payment_intent.succeeded", paid)
	failed := stripetest.PaymentIntent{ID: pi, AccountID: id, Credits: 500, AmountCents: 3999}.Object()
	failed["metadata"].(map[string]string)["recharge"] = "recharge-1"
	e.clock.Set(e.clock.Now().Add(time.Minute))
	e.deliver("evt_failed_late", "payment_intent.payment_failed", failed)
	e.check(id, 599, domain.StatusInactive)
	v := e.load(id).AutoRecharge(e.clock.Now())
	if v.InFlight != "" || v.SpentThisMonth != 3999 || !v.Enabled || len(e.history(id, "RechargeFailed")) != 0 {
		t.Fatalf("after the webhooks: %+v", v)
	}
	for _, ev := range e.history(id, "PaymentRecorded") {
		if p := ev.(domain.PaymentRecorded); p.PaymentID == pi && p.Status == domain.PaymentPaid &&
			(p.Recharge != "recharge-1" || p.Description != "Auto-recharge: 500 credits") {
			t.Fatalf("recharge payment %+v", p)
		}
	}
	// A refund of the recharge behaves as a pack's: its share is taken back.
	ch := stripetest.Charge{ID: "ch_r", PaymentIntentID: pi, AccountID: id, Credits: 500, AmountCents: 3999, RefundedCents: 3999}
	e.deliver("evt_refund", "charge.refunded", ch.Object())
	e.check(id, 99, domain.StatusInactive)
}

// A recharge declined by Stripe's payment_intent.payment_failed webhook
// (the charge answered without a card error): the same decision records
// RechargeFailed, once however often it comes; nothing is granted, and the
// next spend below the threshold tries again with a new key.
func TestRechargeDeclinedByWebhookInStripeMode(t *testing.T) {
	rec := &stripemock.Recorder{}
	p := payments.NewStripe(payments.StripeConfig{SecretKey: "sk_test_123", PriceID: "price_monthly", APIBase: stripemock.URL(t), HTTPClient: &http.Client{Transport: rec}})
	e := newEnv(t, p)
	ctx := context.Background()
	id := e.account("stripe-declined@example.com")
	co, err := e.svc.StartCardSetup(ctx, e.load(id))
	if err != nil {
		t.Fatal(err)
	}
	e.deliver("evt_setup_d", "setup_intent.succeeded", setupSucceeded(co.SetupIntentID, id, "pm_card_chargeDeclined", "0341"))
	pi := e.rechargeBelowThreshold(id, "pi_pack_d", 100, 5000)
	firstKey := rec.Last(t).Header.Get("Idempotency-Key")
	failed := stripetest.PaymentIntent{ID: pi, AccountID: id, Credits: 100, AmountCents: 999}.Object()
	failed["metadata"].(map[string]string)["recharge"] = "recharge-1"
	e.deliver("evt_failed", "payment_intent.payment_failed", failed)
	e.deliver("evt_failed", "payment_intent.payment_failed", failed)
	e.deliver("evt_failed_2", "payment_intent.payment_failed", failed)
	if got := e.history(id, "RechargeFailed"); len(got) != 1 || got[0].(domain.RechargeFailed).Failures != 1 {
		t.Fatalf("RechargeFailed events %+v, want one, the first failure", got)
	}
	e.check(id, 99, domain.StatusInactive)
	e.spendN(id, 1) // still below: a new recharge, a new key
	if n, err := e.commands().RunRecharges.Handle(ctx, command.RunRecharges{Limit: 5}); err != nil || n != 1 {
		t.Fatalf("second worker run: %d, %v", n, err)
	}
	if key := rec.Last(t).Header.Get("Idempotency-Key"); key == firstKey || key != payments.RechargeKey(id, "recharge-2") {
		t.Fatalf("second recharge's key %q (first %q)", key, firstKey)
	}
}

// setupSucceeded is Stripe's setup_intent.succeeded object of id's card
// setup setupIntentID, saving the visa card pm ending in last4.
func setupSucceeded(setupIntentID, id, pm, last4 string) map[string]any {
	return map[string]any{"id": setupIntentID, "object": "setup_intent", "status": "succeeded", "customer": nil,
		"metadata": map[string]string{"account_id": id},
		"payment_method": map[string]any{"id": pm, "object": "payment_method", "type": "card",
			"card": map[string]any{"brand": "visa", "last4": last4}}}
}

// rechargeBelowThreshold buys id a pack of 100 credits ($9.99, payment
// intent packPI), turns auto-recharge on below 100 credits with packs of
// pack credits and at most limitCents a month, spends one credit (100 ->
// 99: below) and runs the worker, which must charge once; it returns the
// charged recharge's payment intent.
func (e *env) rechargeBelowThreshold(id, packPI string, pack, limitCents int64) string {
	e.t.Helper()
	ctx := context.Background()
	cmds := e.commands()
	e.buyPack(id, packPI, 100, 999)
	if _, _, err := cmds.SetAutoRecharge.Handle(ctx, command.SetAutoRecharge{AccountID: id, Enabled: true, ThresholdCredits: 100,
		PackCredits: pack, MonthlyLimitCents: limitCents}); err != nil {
		e.t.Fatal(err)
	}
	e.spendN(id, 1)
	if n, err := cmds.RunRecharges.Handle(ctx, command.RunRecharges{Limit: 5}); err != nil || n != 1 {
		e.t.Fatalf("worker: %d, %v", n, err)
	}
	var pi string
	if err := e.pool.QueryRow(ctx, `SELECT payment_intent_id FROM recharge_requests WHERE account_id = $1 AND status = 'charged'`, id).Scan(&pi); err != nil || pi == "" {
		e.t.Fatalf("charged recharge's payment intent %q, %v", pi, err)
	}
	return pi
}
