package command_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/testing/stripetest"
)

func TestInvoicePaidActivatesGrantsAndRecordsThePayment(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("paid@example.com")
	out := e.deliver("evt_1", "invoice.paid", invoice("in_1", id, 0, 1, true).Object())
	if out.Ignored != "" || out.AccountID != id || out.Result.LastPosition == 0 {
		t.Fatalf("outcome = %+v", out)
	}
	e.check(id, 500, domain.StatusActive)
	if end := e.load(id).PeriodEnd(); end == nil || !end.Equal(month(1)) {
		t.Fatalf("period end = %v, want %v", end, month(1))
	}
	pays := e.history(id, "PaymentRecorded")
	want := domain.PaymentRecorded{
		PaymentID: "in_1", Kind: "subscription", Description: "Monthly Plan — Nov 01, 2026 to Dec 01, 2026",
		AmountCents: 2999, Status: "paid", InvoiceURL: "https://invoice.stripe.com/i/acct_1/in_1", Credits: 500,
		GrantID: domain.MonthlyGrantID("sub_1", month(0)),
	}
	if len(pays) != 1 || pays[0] != want {
		t.Fatalf("payments = %+v, want %+v", pays, want)
	}
	grants := e.history(id, "CreditsGranted")
	if g := grants[0].(domain.CreditsGranted); len(grants) != 1 || g.Source != domain.SourceMonthly || !g.ExpiresAt.Equal(month(1)) {
		t.Fatalf("grants = %+v", grants)
	}
}

func TestDuplicateDeliveryIsAppliedOnce(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("dup@example.com")
	inv := invoice("in_1", id, 0, 1, true).Object()
	first := e.deliver("evt_dup", "invoice.paid", inv)
	v := e.version(id)
	again := e.deliver("evt_dup", "invoice.paid", inv)
	if !again.Result.Replayed || again.Result.LastPosition != first.Result.LastPosition || e.version(id) != v {
		t.Fatalf("redelivery: %+v, version %d -> %d", again.Result, v, e.version(id))
	}
	e.check(id, 500, domain.StatusActive)

	// Another event id about the same invoice is a no-op in the domain.
	e.deliver("evt_other", "invoice.paid", inv)
	e.check(id, 500, domain.StatusActive)
	if n := len(e.history(id, "CreditsGranted", "PaymentRecorded")); n != 2 {
		t.Fatalf("%d grants and payments, want 2", n)
	}

	// The same event id with other content is refused.
	changed := invoice("in_1", id, 0, 1, true)
	changed.AmountCents = 1
	if _, err := e.deliverErr("evt_dup", "invoice.paid", changed.Object()); !errors.Is(err, eventstore.ErrIdempotencyKeyReused) {
		t.Fatalf("reused event id: err = %v", err)
	}
}

func TestOutOfOrderDelivery(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("order@example.com")
	sub := stripetest.Subscription{ID: "sub_1", CustomerID: "cus_unknown", AccountID: id, Status: "active", PeriodStart: month(0), PeriodEnd: month(1)}

	// The subscription's update arrives before its invoice.paid: nothing yet,
	// and the grant still comes with the invoice.
	if out := e.deliver("evt_upd", "customer.subscription.updated", sub.Object()); out.Ignored == "" {
		t.Fatalf("update before invoice: %+v", out)
	}
	e.check(id, 0, domain.StatusInactive)
	e.deliver("evt_paid1", "invoice.paid", invoice("in_1", id, 0, 1, true).Object())
	e.check(id, 500, domain.StatusActive)

	// The renewal is paid; then the first invoice's event comes again late
	// under another id, and a stale past-due update and payment failure of
	// the renewed period arrive: the period stays, nothing is past due.
	e.clock.Set(month(1).Add(time.Hour))
	e.deliver("evt_paid2", "invoice.paid", invoice("in_2", id, 1, 2, true).Object())
	e.check(id, 500, domain.StatusActive)
	e.deliver("evt_paid1_late", "invoice.paid", invoice("in_1", id, 0, 1, true).Object())
	late := sub
	late.Status, late.PeriodStart, late.PeriodEnd = "past_due", month(1), month(2)
	e.deliver("evt_pastdue_late", "customer.subscription.updated", late.Object())
	e.deliver("evt_failed_late", "invoice.payment_failed", invoice("in_2", id, 1, 2, false).Object())
	e.check(id, 500, domain.StatusActive)
	if end := e.load(id).PeriodEnd(); !end.Equal(month(2)) {
		t.Fatalf("period end = %v, want %v", end, month(2))
	}
	for _, ev := range e.history(id, "PaymentRecorded") {
		if p := ev.(domain.PaymentRecorded); p.Status != domain.PaymentPaid {
			t.Fatalf("payment %+v recorded after it was paid", p)
		}
	}
}

func TestRenewalsAndExpiryAcrossCyclesLeavePurchasedCredits(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("cycles@example.com")
	ctx := context.Background()
	e.deliver("evt_c1", "invoice.paid", invoice("in_1", id, 0, 1, true).Object())
	e.deliver("evt_pi", "payment_intent.succeeded", stripetest.PaymentIntent{
		ID: "pi_1", AccountID: id, Credits: 100, AmountCents: 999, Succeeded: true,
	}.Object())
	e.check(id, 600, domain.StatusActive)
	for range 50 {
		if _, err := e.repo.Update(ctx, id, eventstore.UpdateOptions{}, spend); err != nil {
			t.Fatal(err)
		}
	}
	e.check(id, 550, domain.StatusActive) // monthly credits burn first

	// Cycle 2: the renewal expires the 450 left, then grants 500.
	e.clock.Set(month(1).Add(time.Minute))
	e.deliver("evt_c2", "invoice.paid", invoice("in_2", id, 1, 2, true).Object())
	e.check(id, 600, domain.StatusActive)

	// Cycle 3: the sweeper expires the cycle before the renewal arrives.
	e.clock.Set(month(2).Add(time.Hour))
	if _, err := e.commands().ExpireCredits.Handle(ctx, command.ExpireCredits{Limit: 10}); err != nil {
		t.Fatal(err)
	}
	e.check(id, 100, domain.StatusActive)
	e.deliver("evt_c3", "invoice.paid", invoice("in_3", id, 2, 3, true).Object())
	e.check(id, 600, domain.StatusActive)

	// Cycle 4 fails: the cycle's credits expire, the subscription is past
	// due; the retry pays the same invoice and renews.
	e.clock.Set(month(3).Add(time.Hour))
	e.deliver("evt_c4_failed", "invoice.payment_failed", invoice("in_4", id, 3, 4, false).Object())
	e.check(id, 100, domain.StatusPastDue)
	e.clock.Set(month(3).Add(3 * time.Hour))
	e.deliver("evt_c4_paid", "invoice.paid", invoice("in_4", id, 3, 4, true).Object())
	e.check(id, 600, domain.StatusActive)

	// A second sweep finds nothing: every cycle expired exactly once.
	if _, err := e.commands().ExpireCredits.Handle(ctx, command.ExpireCredits{Limit: 10}); err != nil {
		t.Fatal(err)
	}
	expired := e.history(id, "CreditsExpired")
	want := []int64{450, 500, 500}
	if len(expired) != len(want) {
		t.Fatalf("expiries = %+v, want amounts %v", expired, want)
	}
	for i, ev := range expired {
		if x := ev.(domain.CreditsExpired); x.Amount != want[i] || x.GrantID == "purchase:pi_1" {
			t.Fatalf("expiry %d = %+v, want %d monthly credits", i, x, want[i])
		}
	}
	if got := e.load(id).Grants(e.clock.Now()); got[len(got)-1].ID != "purchase:pi_1" || got[len(got)-1].Remaining != 100 {
		t.Fatalf("grants = %+v, want the purchase untouched", got)
	}
}

// spend takes 1 credit, as a metered API request does.
func spend(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
	return nil, a.Spend(domain.OperationAPIRequest, "test", now)
}

func TestCancelAtPeriodEndThenEnd(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("cancel@example.com")
	e.deliver("evt_paid", "invoice.paid", invoice("in_1", id, 0, 1, true).Object())
	sub := stripetest.Subscription{ID: "sub_1", AccountID: id, Status: "active", CancelAtPeriodEnd: true, PeriodStart: month(0), PeriodEnd: month(1)}
	e.deliver("evt_cancel", "customer.subscription.updated", sub.Object())
	e.check(id, 500, domain.StatusCancelling) // access and the cycle's credits stay until the period ends
	e.deliver("evt_cancel_again", "customer.subscription.updated", sub.Object())
	if n := len(e.history(id, "SubscriptionCancelled")); n != 1 {
		t.Fatalf("%d cancellations, want 1", n)
	}
	e.clock.Set(month(1))
	sub.Status = "canceled"
	e.deliver("evt_deleted", "customer.subscription.deleted", sub.Object())
	e.check(id, 0, domain.StatusCancelled)
	if n := len(e.history(id, "SubscriptionEnded")); n != 1 {
		t.Fatalf("%d ends, want 1", n)
	}
}

func TestCreditPurchaseEvents(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("credits@example.com")
	pi := stripetest.PaymentIntent{ID: "pi_1", AccountID: id, Credits: 250, AmountCents: 2500}

	e.deliver("evt_failed", "payment_intent.payment_failed", pi.Object())
	e.check(id, 0, domain.StatusInactive)
	pi.Succeeded = true
	e.deliver("evt_ok", "payment_intent.succeeded", pi.Object())
	e.check(id, 250, domain.StatusInactive)
	pays := e.history(id, "PaymentRecorded")
	if len(pays) != 2 || pays[0].(domain.PaymentRecorded).Status != "failed" || pays[1].(domain.PaymentRecorded) != (domain.PaymentRecorded{
		PaymentID: "pi_1", Kind: "credits", Description: "250 credits", AmountCents: 2500, Status: "paid", Credits: 250,
		GrantID: "purchase:pi_1",
	}) {
		t.Fatalf("payments = %+v", pays)
	}
	g := e.history(id, "CreditsGranted")[0].(domain.CreditsGranted)
	if g.GrantID != "purchase:pi_1" || g.Source != domain.SourcePurchase || g.ExpiresAt != nil || g.Reference != "pi_1" {
		t.Fatalf("grant = %+v", g)
	}

	for name, bad := range map[string]stripetest.PaymentIntent{
		"amount below the catalogue": {ID: "pi_2", AccountID: id, Credits: 100, AmountCents: 1, Succeeded: true},
		"another currency":           {ID: "pi_3", AccountID: id, Credits: 100, AmountCents: 999, Currency: "eur", Succeeded: true},
		"no credit count":            {ID: "pi_4", AccountID: id, Credits: -5, AmountCents: 999, Succeeded: true},
		"a subscription's intent":    {ID: "pi_5", AccountID: id, AmountCents: 2999, Succeeded: true},
		"an unknown account":         {ID: "pi_6", AccountID: "9d6f1a8e-0000-4000-8000-000000000000", Credits: 100, AmountCents: 999, Succeeded: true},
		"no account at all":          {ID: "pi_7", Credits: 100, AmountCents: 999, Succeeded: true},
	} {
		if out := e.deliver("evt_"+bad.ID, "payment_intent.succeeded", bad.Object()); out.Ignored == "" {
			t.Errorf("%s: applied: %+v", name, out)
		}
	}
	e.check(id, 250, domain.StatusInactive)
	if out := e.deliver("evt_charge", "charge.succeeded", map[string]any{"id": "ch_1", "object": "charge"}); out.Ignored == "" {
		t.Fatalf("unhandled type applied: %+v", out)
	}
}

func TestEventsFindTheAccountByCustomer(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("customer@example.com")
	co, err := e.commands().StartSubscription.Handle(context.Background(), command.StartSubscription{AccountID: id})
	if err != nil {
		t.Fatal(err)
	}
	var customerID string
	if err := e.pool.QueryRow(context.Background(), `SELECT customer_id FROM stripe_customers WHERE account_id = $1`, id).Scan(&customerID); err != nil {
		t.Fatal(err)
	}
	inv := invoice(co.InvoiceID, "", 0, 1, true) // no metadata: the customer alone names the account
	inv.CustomerID, inv.SubscriptionID = customerID, co.SubscriptionID
	if out := e.deliver("evt_1", "invoice.paid", inv.Object()); out.AccountID != id {
		t.Fatalf("outcome = %+v", out)
	}
	e.check(id, 500, domain.StatusActive)
	if _, err := e.commands().StartSubscription.Handle(context.Background(), command.StartSubscription{AccountID: id}); !errors.Is(err, payments.ErrAlreadySubscribed) {
		t.Fatalf("second subscription: err = %v", err)
	}
	var status string
	if err := e.pool.QueryRow(context.Background(), `SELECT status FROM payment_intents WHERE invoice_id = $1`, co.InvoiceID).Scan(&status); err != nil || status != "succeeded" {
		t.Fatalf("intent status = %q, %v", status, err)
	}
}
