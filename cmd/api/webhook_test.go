package main

import (
	"context"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/testing/stripetest"
)

// webhook delivers object as Stripe event id of type typ, signed with the
// test secret.
func (e *testEnv) webhook(id, typ string, object map[string]any) response {
	e.t.Helper()
	payload := stripetest.Event(id, typ, time.Now(), object)
	return e.do(request{method: "POST", path: "/api/webhooks/stripe", body: string(payload),
		header: map[string]string{"Stripe-Signature": stripetest.Sign(payload, testWebhookSecret)}})
}

// streamVersion is account id's number of events.
func (e *testEnv) streamVersion(id string) int {
	e.t.Helper()
	recs, err := e.deps.Store.ReadStream(context.Background(), domain.StreamID(id), 0, 0)
	if err != nil {
		e.t.Fatal(err)
	}
	return len(recs)
}

func TestStripeWebhooks(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, withStripe(t))
	s := e.seedAccount("hooks@example.com")
	now := time.Now().UTC().Truncate(time.Second)
	inv := stripetest.Invoice{ID: "in_hook_1", CustomerID: "cus_elsewhere", SubscriptionID: "sub_hook", AccountID: s.ID,
		PeriodStart: now, PeriodEnd: now.AddDate(0, 1, 0), AmountCents: 2999, Paid: true,
		HostedURL: "https://invoice.stripe.com/i/acct_test/in_hook_1"}
	payload := stripetest.Event("evt_hook_paid", "invoice.paid", now, inv.Object())

	t.Run("bad signature", func(t *testing.T) {
		before := e.streamVersion(s.ID)
		for name, sig := range map[string]string{
			"missing":      "",
			"other secret": stripetest.Sign(payload, "whsec_someone_else"),
			"stale":        "t=1000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
		} {
			r := e.do(request{method: "POST", path: "/api/webhooks/stripe", body: string(payload), header: map[string]string{"Stripe-Signature": sig}})
			if r.status != 400 || r.message(t) != "Invalid webhook signature" {
				t.Errorf("%s: %d %s", name, r.status, r.body)
			}
		}
		if after := e.streamVersion(s.ID); after != before {
			t.Fatalf("a refused webhook recorded %d events", after-before)
		}
	})

	t.Run("out of order: subscription updated before invoice paid", func(t *testing.T) {
		sub := stripetest.Subscription{ID: "sub_hook", CustomerID: "cus_elsewhere", AccountID: s.ID, Status: "active",
			PeriodStart: now, PeriodEnd: now.AddDate(0, 1, 0)}
		var got struct {
			Received bool
			Ignored  string
		}
		r := e.webhook("evt_hook_updated", "customer.subscription.updated", sub.Object())
		r.json(t, &got)
		if r.status != 200 || !got.Received || got.Ignored == "" {
			t.Fatalf("update first = %d %s", r.status, r.body)
		}
		e.checkAccount(s.ID, 0, domain.StatusInactive)
	})

	t.Run("valid", func(t *testing.T) {
		r := e.do(request{method: "POST", path: "/api/webhooks/stripe", body: string(payload),
			header: map[string]string{"Stripe-Signature": stripetest.Sign(payload, testWebhookSecret)}})
		if r.status != 200 {
			t.Fatalf("invoice.paid = %d %s", r.status, r.body)
		}
		e.settle(s.ID)
		e.checkAccount(s.ID, 500, domain.StatusActive)
		list := e.transactions(s.ID)
		if len(list) != 1 || list[0].ID != "in_hook_1" || list[0].Status != "paid" || list[0].AmountCents != 2999 ||
			list[0].InvoiceURL != inv.HostedURL {
			t.Fatalf("transactions = %+v", list)
		}
	})

	t.Run("duplicate delivery", func(t *testing.T) {
		before := e.streamVersion(s.ID)
		var got struct{ Received, Replayed bool }
		r := e.do(request{method: "POST", path: "/api/webhooks/stripe", body: string(payload),
			header: map[string]string{"Stripe-Signature": stripetest.Sign(payload, testWebhookSecret)}})
		r.json(t, &got)
		if r.status != 200 || !got.Replayed || e.streamVersion(s.ID) != before {
			t.Fatalf("redelivery = %d %s, %d new events", r.status, r.body, e.streamVersion(s.ID)-before)
		}
		e.checkAccount(s.ID, 500, domain.StatusActive)
	})

	t.Run("payment failures", func(t *testing.T) {
		pi := stripetest.PaymentIntent{ID: "pi_hook", CustomerID: "cus_elsewhere", AccountID: s.ID, Credits: 100, AmountCents: 999}
		if r := e.webhook("evt_hook_pi_failed", "payment_intent.payment_failed", pi.Object()); r.status != 200 {
			t.Fatalf("payment_intent.payment_failed = %d %s", r.status, r.body)
		}
		renewal := inv
		renewal.ID, renewal.Paid, renewal.PeriodStart, renewal.PeriodEnd = "in_hook_2", false, inv.PeriodEnd, inv.PeriodEnd.AddDate(0, 1, 0)
		if r := e.webhook("evt_hook_inv_failed", "invoice.payment_failed", renewal.Object()); r.status != 200 {
			t.Fatalf("invoice.payment_failed = %d %s", r.status, r.body)
		}
		e.settle(s.ID)
		e.checkAccount(s.ID, 500, domain.StatusPastDue)
		statuses := map[string]string{}
		for _, x := range e.transactions(s.ID) {
			statuses[x.ID] = x.Status
		}
		if statuses["pi_hook"] != "failed" || statuses["in_hook_2"] != "failed" || statuses["in_hook_1"] != "paid" {
			t.Fatalf("transactions = %v", statuses)
		}
	})
}

func TestWebhooksRefusedWithoutASigningSecret(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t) // the simulated provider: no STRIPE_WEBHOOK_SECRET
	payload := stripetest.Event("evt_1", "charge.succeeded", time.Now(), map[string]any{"id": "ch_1"})
	r := e.do(request{method: "POST", path: "/api/webhooks/stripe", body: string(payload),
		header: map[string]string{"Stripe-Signature": stripetest.Sign(payload, "")}})
	if r.status != 400 {
		t.Fatalf("webhook signed with an empty secret = %d %s", r.status, r.body)
	}
}
