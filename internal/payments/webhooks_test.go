package payments_test

import (
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v82"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/testing/stripetest"
)

const webhookSecret = "whsec_test_payments"

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// webhooks is a Service that only verifies and reads webhooks: neither
// needs the database.
func webhooks(secret string) *payments.Service {
	return payments.NewService(nil, nil, payments.NewSimulated(), secret, slog.New(slog.DiscardHandler))
}

func TestInvalidWebhooksAreRefused(t *testing.T) {
	svc := webhooks(webhookSecret)
	payload := stripetest.Event("evt_1", "invoice.paid", t0, stripetest.Invoice{ID: "in_1", CustomerID: "cus_unknown", SubscriptionID: "sub_1",
		AccountID: "x", PeriodStart: t0, PeriodEnd: t0.AddDate(0, 1, 0), AmountCents: 2999, Paid: true}.Object())
	for name, sig := range map[string]string{
		"no signature":    "",
		"another secret":  stripetest.Sign(payload, "whsec_other"),
		"altered payload": stripetest.Sign(append([]byte(" "), payload...), webhookSecret),
		"garbage":         "t=1,v1=zz",
	} {
		if _, err := svc.ParseWebhook(payload, sig); !errors.Is(err, payments.ErrInvalidWebhook) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if _, err := webhooks("").ParseWebhook(payload, stripetest.Sign(payload, "")); !errors.Is(err, payments.ErrInvalidWebhook) {
		t.Errorf("no secret configured: err = %v", err)
	}
}

func TestWebhookOfAnotherAPIVersionIsNamed(t *testing.T) {
	svc := webhooks(webhookSecret)
	payload := []byte(`{"id":"evt_old","object":"event","api_version":"2024-06-20","created":1,"type":"invoice.paid","data":{"object":{}}}`)
	_, err := svc.ParseWebhook(payload, stripetest.Sign(payload, webhookSecret))
	if !errors.Is(err, payments.ErrInvalidWebhook) || domain.ErrorCode(err) != domain.CodeInvalid ||
		!strings.Contains(domain.ErrorMessage(err), `"2024-06-20"`) || !strings.Contains(domain.ErrorMessage(err), stripe.APIVersion) {
		t.Fatalf("err = %v", err)
	}
	// A bad signature stays a bad signature.
	if _, err := svc.ParseWebhook(payload, "t=1,v1=00"); domain.ErrorCode(err) != "" || !errors.Is(err, payments.ErrInvalidWebhook) {
		t.Fatalf("bad signature: %v", err)
	}
}

// The Stripe adapter reads each handled event into the provider-neutral
// Notification the use case decides on: kind, ids, amounts, owner.
func TestNotificationsReadStripeEvents(t *testing.T) {
	svc := webhooks(webhookSecret)
	read := func(id, typ string, object map[string]any) payments.Notification {
		t.Helper()
		payload := stripetest.Event(id, typ, t0, object)
		n, err := svc.ParseNotification(payload, stripetest.Sign(payload, webhookSecret))
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		if n.ID != id || n.Type != typ || !n.Created.Equal(t0) || (n.Kind != "" && n.Hash == "") {
			t.Fatalf("%s: %+v", typ, n)
		}
		return n
	}
	inv := read("evt_inv", "invoice.paid", stripetest.Invoice{ID: "in_1", CustomerID: "cus_1", SubscriptionID: "sub_1", AccountID: "acc-1",
		PeriodStart: t0, PeriodEnd: t0.AddDate(0, 1, 0), AmountCents: 2999, Paid: true, HostedURL: "https://invoice.example/in_1"}.Object())
	if i := inv.Invoice; inv.Kind != payments.InvoicePaid || i == nil || i.ID != "in_1" || i.SubscriptionID != "sub_1" || !i.HasPeriod ||
		!i.PeriodStart.Equal(t0) || !i.PeriodEnd.Equal(t0.AddDate(0, 1, 0)) || i.AmountPaid != 2999 || i.HostedURL != "https://invoice.example/in_1" ||
		i.Owner.CustomerID != "cus_1" || i.Owner.AccountID != "acc-1" {
		t.Fatalf("invoice.paid: %+v %+v", inv, inv.Invoice)
	}
	sub := read("evt_sub", "customer.subscription.updated", stripetest.Subscription{ID: "sub_1", CustomerID: "cus_1", AccountID: "acc-1",
		Status: "past_due", CancelAtPeriodEnd: true, PeriodStart: t0, PeriodEnd: t0.AddDate(0, 1, 0)}.Object())
	if u := sub.Subscription; sub.Kind != payments.SubscriptionUpdated || u == nil || u.ID != "sub_1" || u.Status != payments.SubscriptionPastDue ||
		!u.Cancelling || !u.PeriodEnd.Equal(t0.AddDate(0, 1, 0)) || u.Owner.AccountID != "acc-1" {
		t.Fatalf("customer.subscription.updated: %+v %+v", sub, sub.Subscription)
	}
	pi := read("evt_pi", "payment_intent.payment_failed", stripetest.PaymentIntent{ID: "pi_1", CustomerID: "cus_1", AccountID: "acc-1",
		Credits: 100, AmountCents: 999}.Object())
	if p := pi.Payment; pi.Kind != payments.PaymentFailed || p == nil || p.ID != "pi_1" || p.Credits != 100 || p.AmountCents != 999 ||
		p.Currency != "usd" || p.Owner.Kind != payments.KindCredits {
		t.Fatalf("payment_intent.payment_failed: %+v %+v", pi, pi.Payment)
	}
	charge := stripetest.Charge{ID: "ch_1", PaymentIntentID: "pi_1", CustomerID: "cus_1", AccountID: "acc-1", Credits: 100,
		AmountCents: 999, RefundedCents: 400}
	ch := read("evt_ch", "charge.refunded", charge.Object())
	if c := ch.Charge; ch.Kind != payments.ChargeRefunded || c == nil || c.AmountRefunded != 400 || c.PaymentIntentID != "pi_1" || !c.Known {
		t.Fatalf("charge.refunded: %+v %+v", ch, ch.Charge)
	}
	dp := read("evt_dp", "charge.dispute.closed", stripetest.Dispute{ID: "dp_1", Charge: charge, Status: "lost"}.Object())
	if d := dp.Dispute; dp.Kind != payments.DisputeClosed || d == nil || !d.Lost || d.AmountCents != 999 || d.PaymentIntentID != "pi_1" ||
		d.Charge == nil || d.Charge.ID != "ch_1" || d.Charge.Known {
		t.Fatalf("charge.dispute.closed: %+v %+v", dp, dp.Dispute)
	}
	if other := read("evt_other", "customer.created", map[string]any{"id": "cus_1", "object": "customer"}); other.Kind != "" {
		t.Fatalf("customer.created: kind %q, want none", other.Kind)
	}
}
