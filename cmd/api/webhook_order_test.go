package main

import (
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/testing/stripetest"
)

// Stripe mode, the order reported in issue 31: customer.subscription.deleted
// before the same period's invoice.paid ends the subscription as the other
// order does; the seller may subscribe again.
func TestStripeWebhooksDeletionBeforeInvoicePaid(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, withStripe(t))
	s := e.seedVerified("deleted-first@example.com")
	now := time.Now().UTC().Truncate(time.Second)
	start := now.Add(-time.Hour)
	sub := stripetest.Subscription{ID: "sub_gone", CustomerID: "cus_elsewhere", AccountID: s.ID, Status: "canceled",
		PeriodStart: start, PeriodEnd: start.AddDate(0, 1, 0)}
	inv := stripetest.Invoice{ID: "in_gone", CustomerID: "cus_elsewhere", SubscriptionID: "sub_gone", AccountID: s.ID,
		PeriodStart: start, PeriodEnd: start.AddDate(0, 1, 0), AmountCents: 2999, Paid: true}
	if r := e.webhook("evt_gone_deleted", "customer.subscription.deleted", sub.Object()); r.status != 200 {
		t.Fatalf("deleted = %d %s", r.status, r.body)
	}
	if r := e.webhook("evt_gone_paid", "invoice.paid", inv.Object()); r.status != 200 {
		t.Fatalf("invoice.paid = %d %s", r.status, r.body)
	}
	e.settle(s.ID)
	e.checkAccount(s.ID, 500, domain.StatusCancelled)
	if r := e.post(s, "/api/subscription/create", nil); r.status == 409 {
		t.Fatalf("subscribing again after the deletion = %d %s", r.status, r.body)
	}
}

// A signed event whose object does not parse, or without an id, is
// refused with 400 and a reason, and records nothing (issue 31).
func TestStripeWebhooksMalformedSignedEvents(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, withStripe(t))
	s := e.seedVerified("malformed@example.com")
	before := e.streamVersion(s.ID)
	now := time.Now()
	inv := stripetest.Invoice{ID: "in_bad", CustomerID: "cus_elsewhere", SubscriptionID: "sub_bad", AccountID: s.ID,
		PeriodStart: now, PeriodEnd: now.AddDate(0, 1, 0), AmountCents: 2999, Paid: true}.Object()
	inv["amount_paid"] = "a lot"
	r := e.webhook("evt_bad_object", "invoice.paid", inv)
	if r.status != 400 || !strings.Contains(r.message(t), "invoice object cannot be read") {
		t.Fatalf("unparsable object = %d %s", r.status, r.body)
	}
	pi := stripetest.PaymentIntent{ID: "pi_noid", CustomerID: "cus_elsewhere", AccountID: s.ID, Credits: 100, AmountCents: 999, Succeeded: true}
	r = e.webhook("", "payment_intent.succeeded", pi.Object())
	if r.status != 400 || r.message(t) != "The event has no id" {
		t.Fatalf("event without an id = %d %s", r.status, r.body)
	}
	if after := e.streamVersion(s.ID); after != before {
		t.Fatalf("refused events recorded %d events", after-before)
	}
	e.checkAccount(s.ID, 0, domain.StatusInactive)
}
