package command_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/testing/stripetest"
)

// delivery is one signed webhook of a test.
type delivery struct {
	id, typ string
	object  map[string]any
}

// deliverAll applies ds in order; an event answered for a retry (503) is
// delivered again after the others, as Stripe redelivers it.
func (e *env) deliverAll(ds ...delivery) {
	e.t.Helper()
	var retry []delivery
	for _, d := range ds {
		if _, err := e.deliverErr(d.id, d.typ, d.object); err != nil {
			if domain.ErrorCode(err) != domain.CodeUnavailable {
				e.t.Fatalf("%s %s: %v", d.typ, d.id, err)
			}
			retry = append(retry, d)
		}
	}
	for _, d := range retry {
		e.deliver(d.id, d.typ, d.object)
	}
}

// Stripe's customer.subscription.deleted and the same period's invoice.paid
// end the subscription whichever comes first (issue 31).
func TestDeletionAndInvoicePaidInEitherOrder(t *testing.T) {
	for name, reversed := range map[string]bool{"in order": false, "deleted first": true} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, payments.NewSimulated())
			id := e.account("deleted@example.com")
			paid := delivery{"evt_paid", "invoice.paid", invoice("in_1", id, 0, 1, true).Object()}
			deleted := delivery{"evt_deleted", "customer.subscription.deleted", stripetest.Subscription{
				ID: "sub_1", AccountID: id, Status: "canceled", PeriodStart: month(0), PeriodEnd: month(1)}.Object()}
			ds := []delivery{paid, deleted}
			if reversed {
				ds = []delivery{deleted, paid}
			}
			e.deliverAll(ds...)
			e.check(id, 500, domain.StatusCancelled)
			a := e.load(id)
			if a.HasPremiumAccess(e.clock.Now()) || a.PaymentStatus("in_1") != domain.PaymentPaid {
				t.Fatalf("premium %v, payment %q; want none, paid", a.HasPremiumAccess(e.clock.Now()), a.PaymentStatus("in_1"))
			}
			// A redelivery of the invoice changes nothing.
			e.deliver("evt_paid_again", "invoice.paid", invoice("in_1", id, 0, 1, true).Object())
			e.check(id, 500, domain.StatusCancelled)
		})
	}
}

// The seller cancels a past due subscription (it ends at once); the
// invoice.paid of the retried payment arrives after: it stays cancelled.
func TestSellerCancelOfPastDueThenLateInvoicePaid(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("pastdue@example.com")
	e.deliver("evt_paid", "invoice.paid", invoice("in_1", id, 0, 1, true).Object())
	e.clock.Set(month(1).Add(time.Hour))
	e.deliver("evt_failed", "invoice.payment_failed", invoice("in_2", id, 1, 2, false).Object())
	e.check(id, 0, domain.StatusPastDue)
	if _, err := e.commands().CancelSubscription.Handle(context.Background(), command.SellerSubscription{AccountID: id, Metadata: eventstore.Metadata{Actor: "seller"}}); err != nil {
		t.Fatal(err)
	}
	e.check(id, 0, domain.StatusCancelled)
	e.deliver("evt_paid_late", "invoice.paid", invoice("in_2", id, 1, 2, true).Object())
	e.deliver("evt_deleted", "customer.subscription.deleted", stripetest.Subscription{
		ID: "sub_1", AccountID: id, Status: "canceled", PeriodStart: month(1), PeriodEnd: month(2)}.Object())
	e.check(id, 500, domain.StatusCancelled)
	if a := e.load(id); a.HasPremiumAccess(e.clock.Now()) {
		t.Fatal("a late invoice.paid gave premium access back")
	}
}

// A cancellation in the portal that overtakes the first invoice.paid is
// answered for a retry and applied once the subscription is in.
func TestPortalCancelAndFirstInvoicePaidInEitherOrder(t *testing.T) {
	for name, reversed := range map[string]bool{"in order": false, "cancel first": true} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, payments.NewSimulated())
			id := e.account("early-cancel@example.com")
			paid := delivery{"evt_paid", "invoice.paid", invoice("in_1", id, 0, 1, true).Object()}
			cancel := delivery{"evt_cancel", "customer.subscription.updated", stripetest.Subscription{
				ID: "sub_1", AccountID: id, Status: "active", CancelAtPeriodEnd: true, PeriodStart: month(0), PeriodEnd: month(1)}.Object()}
			ds := []delivery{paid, cancel}
			if reversed {
				ds = []delivery{cancel, paid}
			}
			e.deliverAll(ds...)
			e.check(id, 500, domain.StatusCancelling)
			if ends := e.load(id).SubscriptionEndsAt(); ends == nil || !ends.Equal(month(1)) {
				t.Fatalf("ends at %v, want %v", ends, month(1))
			}
		})
	}
}

// A signed event whose object does not parse, or that has no id, is
// refused as invalid (400): nothing is recorded, and Stripe is not asked to
// retry the same bytes for days.
func TestMalformedSignedEventsAreRefused(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("malformed@example.com")
	obj := invoice("in_1", id, 0, 1, true).Object()
	obj["lines"] = "not a list"
	_, err := e.deliverErr("evt_bad", "invoice.paid", obj)
	if !errors.Is(err, payments.ErrInvalidWebhook) || domain.ErrorCode(err) != domain.CodeInvalid ||
		!strings.Contains(domain.ErrorMessage(err), "invoice object cannot be read") {
		t.Fatalf("unparsable object: %v", err)
	}
	payload := stripetest.Event("", "payment_intent.succeeded", e.clock.Now(),
		stripetest.PaymentIntent{ID: "pi_1", AccountID: id, Credits: 100, AmountCents: 999, Succeeded: true}.Object())
	_, err = e.svc.ParseWebhook(payload, stripetest.Sign(payload, webhookSecret))
	if !errors.Is(err, payments.ErrInvalidWebhook) || domain.ErrorMessage(err) != "The event has no id" {
		t.Fatalf("event without an id: %v", err)
	}
	e.check(id, 0, domain.StatusInactive)
}

// The seller cancels after Stripe renewed but before the renewal's
// invoice.paid arrives: the renewal keeps the cancellation, which ends the
// period it pays, as when the invoice.paid comes first.
func TestSellerCancelAndARenewalMadeBeforeItInEitherOrder(t *testing.T) {
	for name, renewalFirst := range map[string]bool{"renewal first": true, "cancel first": false} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, payments.NewSimulated())
			id := e.account("cancel-race@example.com")
			ctx := context.Background()
			e.deliver("evt_paid1", "invoice.paid", invoice("in_1", id, 0, 1, true).Object())
			renewal := stripetest.Event("evt_paid2", "invoice.paid", month(1), invoice("in_2", id, 1, 2, true).Object())
			applyRenewal := func() {
				if _, err := e.deliverPayload(renewal); err != nil {
					t.Fatal(err)
				}
			}
			e.clock.Set(month(1).Add(time.Minute))
			if renewalFirst {
				applyRenewal()
			}
			if _, err := e.commands().CancelSubscription.Handle(ctx, command.SellerSubscription{AccountID: id, Metadata: eventstore.Metadata{Actor: "seller"}}); err != nil {
				t.Fatal(err)
			}
			e.clock.Set(month(1).Add(2 * time.Minute))
			if !renewalFirst {
				applyRenewal()
			}
			e.check(id, 500, domain.StatusCancelling)
			if ends := e.load(id).SubscriptionEndsAt(); ends == nil || !ends.Equal(month(2)) {
				t.Fatalf("ends at %v, want %v", ends, month(2))
			}
		})
	}
}
