package command_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/testing/stripetest"
)

// buyPack delivers the success of a pack of credits for cents, paid as pi.
func (e *env) buyPack(id, pi string, credits, cents int64) {
	e.t.Helper()
	e.deliver("evt_"+pi, "payment_intent.succeeded",
		stripetest.PaymentIntent{ID: pi, AccountID: id, Credits: credits, AmountCents: cents, Succeeded: true}.Object())
}

// spendN takes n credits, as n metered API requests do.
func (e *env) spendN(id string, n int) {
	e.t.Helper()
	for range n {
		if _, err := e.repo.Update(context.Background(), id, eventstore.UpdateOptions{}, spend); err != nil {
			e.t.Fatal(err)
		}
	}
}

func TestRefundsTakeBackTheRefundedShare(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("refund@example.com")
	e.buyPack(id, "pi_1", 100, 999)
	ch := stripetest.Charge{ID: "ch_1", PaymentIntentID: "pi_1", AccountID: id, Credits: 100, AmountCents: 999, RefundedCents: 500}

	e.deliver("evt_r1", "charge.refunded", ch.Object())
	e.check(id, 50, domain.StatusInactive)
	if st := e.load(id).PaymentStatus("pi_1"); st != domain.PaymentPartiallyRefunded {
		t.Fatalf("status = %q", st)
	}
	// A redelivery, and another event with the same total, change nothing.
	if out := e.deliver("evt_r1", "charge.refunded", ch.Object()); !out.Result.Replayed {
		t.Fatalf("redelivery = %+v", out)
	}
	e.deliver("evt_r1_again", "charge.refunded", ch.Object())
	e.check(id, 50, domain.StatusInactive)
	// refund.created is acknowledged: charge.refunded carries the total.
	if out := e.deliver("evt_rc", "refund.created", map[string]any{"id": "re_1", "object": "refund", "amount": 499,
		"charge": "ch_1", "payment_intent": "pi_1", "status": "succeeded"}); out.Ignored == "" {
		t.Fatalf("refund.created = %+v", out)
	}

	ch.RefundedCents = 999
	e.deliver("evt_r2", "charge.refunded", ch.Object())
	e.check(id, 0, domain.StatusInactive)
	if st := e.load(id).PaymentStatus("pi_1"); st != domain.PaymentRefundedInFull {
		t.Fatalf("status = %q", st)
	}

	// A refund that overtakes its payment's own event is answered for a
	// retry (503), and applied once that event is in.
	early := stripetest.Charge{ID: "ch_2", PaymentIntentID: "pi_2", AccountID: id, Credits: 100, AmountCents: 999, RefundedCents: 999}
	if _, err := e.deliverErr("evt_early", "charge.refunded", early.Object()); domain.ErrorCode(err) != domain.CodeUnavailable {
		t.Fatalf("refund before its payment: err = %v", err)
	}
	e.buyPack(id, "pi_2", 100, 999)
	e.deliver("evt_early", "charge.refunded", early.Object())
	e.check(id, 0, domain.StatusInactive)
	// A charge of no account of this product is acknowledged and ignored.
	stranger := stripetest.Charge{ID: "ch_x", PaymentIntentID: "pi_x", AmountCents: 999, RefundedCents: 999}
	if out := e.deliver("evt_rx", "charge.refunded", stranger.Object()); out.Ignored == "" {
		t.Fatalf("a stranger's charge = %+v", out)
	}
}

func TestRefundOfSpentCreditsIsDebtRepaidByTheNextGrant(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("debt@example.com")
	e.buyPack(id, "pi_1", 100, 999)
	e.spendN(id, 100)
	e.deliver("evt_r", "charge.refunded",
		stripetest.Charge{ID: "ch_1", PaymentIntentID: "pi_1", AccountID: id, Credits: 100, AmountCents: 999, RefundedCents: 999}.Object())
	a := e.load(id)
	if a.Balance(e.clock.Now()) != 0 || a.CreditDebt() != 100 {
		t.Fatalf("balance %d, debt %d; want 0, 100", a.Balance(e.clock.Now()), a.CreditDebt())
	}
	e.buyPack(id, "pi_2", 150, 1500)
	a = e.load(id)
	if a.Balance(e.clock.Now()) != 50 || a.CreditDebt() != 0 {
		t.Fatalf("after the next pack: balance %d, debt %d; want 50, 0", a.Balance(e.clock.Now()), a.CreditDebt())
	}
}

func TestRefundedRenewalExpiresItsCycle(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("cycle@example.com")
	e.deliver("evt_paid", "invoice.paid", invoice("in_1", id, 0, 1, true).Object())
	// The checkout that started the subscription knows the invoice of its
	// PaymentIntent, as CreateSubscription remembers it.
	if _, err := e.pool.Exec(context.Background(), `INSERT INTO payment_intents
		(intent_id, account_id, kind, credits, amount_cents, currency, subscription_id, invoice_id, status)
		VALUES ('pi_in1', $1, 'subscription', 500, 2999, 'usd', 'sub_1', 'in_1', 'succeeded')`, id); err != nil {
		t.Fatal(err)
	}
	e.spendN(id, 200)
	e.deliver("evt_r", "charge.refunded",
		stripetest.Charge{ID: "ch_1", PaymentIntentID: "pi_in1", AccountID: id, AmountCents: 2999, RefundedCents: 2999}.Object())
	a := e.load(id)
	if a.Balance(e.clock.Now()) != 0 || a.CreditDebt() != 0 || a.PaymentStatus("in_1") != domain.PaymentRefundedInFull {
		t.Fatalf("balance %d, debt %d, status %q; want 0, 0 (spent monthly credits are not owed), refunded",
			a.Balance(e.clock.Now()), a.CreditDebt(), a.PaymentStatus("in_1"))
	}
}

func TestDisputeFreezesSpendingUntilItCloses(t *testing.T) {
	p := &chargeProvider{Simulated: payments.NewSimulated()}
	e := newEnv(t, p)
	id := e.account("dispute@example.com")
	// The dispute names its charge by id; the charge carries the pack's
	// metadata, copied from its PaymentIntent.
	p.charges = map[string]payments.ChargeOwner{"ch_1": {PaymentIntentID: "pi_1",
		Metadata: map[string]string{"account_id": id, "kind": "credits", "credits": "100"}}}
	e.buyPack(id, "pi_1", 100, 999)
	ch := stripetest.Charge{ID: "ch_1", PaymentIntentID: "pi_1", AccountID: id, Credits: 100, AmountCents: 999}
	e.deliver("evt_d1", "charge.dispute.created", stripetest.Dispute{ID: "dp_1", Charge: ch, Status: "needs_response"}.Object())
	e.deliver("evt_d2", "charge.dispute.funds_withdrawn", stripetest.Dispute{ID: "dp_1", Charge: ch, Status: "needs_response"}.Object())
	if n := len(e.history(id, "DisputeOpened")); n != 1 {
		t.Fatalf("%d DisputeOpened, want 1", n)
	}
	_, err := e.repo.Update(context.Background(), id, eventstore.UpdateOptions{}, spend)
	if !errors.Is(err, domain.ErrSpendingFrozen) && domain.ErrorCode(err) != domain.CodeForbidden {
		t.Fatalf("spend during a dispute: %v", err)
	}
	e.deliver("evt_d3", "charge.dispute.closed", stripetest.Dispute{ID: "dp_1", Charge: ch, Status: "won"}.Object())
	if a := e.load(id); a.SpendingFrozen() || a.PaymentStatus("pi_1") != domain.PaymentPaid {
		t.Fatalf("after a won dispute: frozen %v, status %q", a.SpendingFrozen(), a.PaymentStatus("pi_1"))
	}
	e.spendN(id, 40)

	// A second dispute is lost: the pack's credits go, the spent ones are owed.
	e.deliver("evt_d4", "charge.dispute.created", stripetest.Dispute{ID: "dp_2", Charge: ch, Status: "needs_response"}.Object())
	e.deliver("evt_d5", "charge.dispute.closed", stripetest.Dispute{ID: "dp_2", Charge: ch, Status: "lost"}.Object())
	a := e.load(id)
	if a.SpendingFrozen() || a.Balance(e.clock.Now()) != 0 || a.CreditDebt() != 40 || a.PaymentStatus("pi_1") != domain.PaymentChargedBack {
		t.Fatalf("after a lost dispute: frozen %v, balance %d, debt %d, status %q",
			a.SpendingFrozen(), a.Balance(e.clock.Now()), a.CreditDebt(), a.PaymentStatus("pi_1"))
	}
}

func TestCancelAndResumeFromThePortal(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("portal@example.com")
	e.deliver("evt_paid", "invoice.paid", invoice("in_1", id, 0, 1, true).Object())
	sub := stripetest.Subscription{ID: "sub_1", AccountID: id, Status: "active", CancelAtPeriodEnd: true, PeriodStart: month(0), PeriodEnd: month(1)}
	e.deliver("evt_cancel", "customer.subscription.updated", sub.Object())
	e.check(id, 500, domain.StatusCancelling)
	if ends := e.load(id).SubscriptionEndsAt(); ends == nil || !ends.Equal(month(1)) {
		t.Fatalf("ends at %v, want %v", ends, month(1))
	}
	// An update created before the cancellation, delivered late, does not
	// undo it.
	sub.CancelAtPeriodEnd = false
	stale := stripetest.Event("evt_stale", "customer.subscription.updated", e.clock.Now().Add(-time.Minute), sub.Object())
	if _, err := e.deliverPayload(stale); err != nil {
		t.Fatal(err)
	}
	e.check(id, 500, domain.StatusCancelling)

	e.clock.Set(e.clock.Now().Add(time.Minute))
	e.deliver("evt_resume", "customer.subscription.updated", sub.Object())
	e.check(id, 500, domain.StatusActive)
	if n := len(e.history(id, "SubscriptionResumed")); n != 1 {
		t.Fatalf("%d SubscriptionResumed, want 1", n)
	}
}

func TestASecondSubscriptionsPaymentIsFlaggedNotGranted(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("twice@example.com")
	e.deliver("evt_1", "invoice.paid", invoice("in_1", id, 0, 1, true).Object())
	second := invoice("in_2", id, 0, 1, true)
	second.SubscriptionID = "sub_2"
	e.deliver("evt_2", "invoice.paid", second.Object())
	e.check(id, 500, domain.StatusActive)
	a := e.load(id)
	if a.SubscriptionID() != "sub_1" || a.PaymentStatus("in_2") != domain.PaymentNeedsReview {
		t.Fatalf("subscription %q, second payment %q", a.SubscriptionID(), a.PaymentStatus("in_2"))
	}
	// Staff refund it at Stripe: the transaction says so, no credit moves.
	if _, err := e.pool.Exec(context.Background(), `INSERT INTO payment_intents
		(intent_id, account_id, kind, credits, amount_cents, currency, subscription_id, invoice_id, status)
		VALUES ('pi_in2', $1, 'subscription', 500, 2999, 'usd', 'sub_2', 'in_2', 'succeeded')`, id); err != nil {
		t.Fatal(err)
	}
	e.deliver("evt_r2", "charge.refunded", stripetest.Charge{ID: "ch_2", PaymentIntentID: "pi_in2", AccountID: id, AmountCents: 2999, RefundedCents: 2999}.Object())
	e.check(id, 500, domain.StatusActive)
	if st := e.load(id).PaymentStatus("in_2"); st != domain.PaymentRefundedInFull {
		t.Fatalf("refunded flagged payment = %q", st)
	}
}

func TestAPaidInvoiceOfAVoidedCheckoutIsFlagged(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("voided@example.com")
	if _, err := e.pool.Exec(context.Background(), `INSERT INTO payment_intents
		(intent_id, account_id, kind, credits, amount_cents, currency, subscription_id, invoice_id, status)
		VALUES ('pi_old', $1, 'subscription', 500, 2999, 'usd', 'sub_1', 'in_1', 'voided')`, id); err != nil {
		t.Fatal(err)
	}
	e.deliver("evt_1", "invoice.paid", invoice("in_1", id, 0, 1, true).Object())
	e.check(id, 0, domain.StatusInactive)
	if st := e.load(id).PaymentStatus("in_1"); st != domain.PaymentNeedsReview {
		t.Fatalf("payment of a voided checkout = %q", st)
	}
}

func TestServiceCancelResumeAndPortal(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	e.svc = payments.NewService(e.pool, e.repo, payments.NewSimulated(), webhookSecret, slog.New(slog.DiscardHandler), payments.WithBilling("Test Product", "http://app.test", func() {}))
	id := e.account("service@example.com")
	ctx, md := context.Background(), eventstore.Metadata{Actor: "test"}
	if _, err := e.svc.PortalURL(ctx, id); !errors.Is(err, payments.ErrNoBillingAccount) {
		t.Fatalf("portal before any checkout: %v", err)
	}

	// A second create while the first checkout is unpaid answers it again;
	// once it is older than the reuse window, a new one voids it.
	first, err := e.commands().StartSubscription.Handle(ctx, command.StartSubscription{AccountID: id})
	if err != nil {
		t.Fatal(err)
	}
	again, err := e.commands().StartSubscription.Handle(ctx, command.StartSubscription{AccountID: id})
	if err != nil || again != first {
		t.Fatalf("second create = %+v, %v; want the first checkout %+v", again, err, first)
	}
	e.clock.Set(t0.Add(2 * time.Hour))
	second, err := e.commands().StartSubscription.Handle(ctx, command.StartSubscription{AccountID: id})
	if err != nil || second.ClientSecret == first.ClientSecret {
		t.Fatalf("create after the reuse window = %+v, %v", second, err)
	}
	if _, err := e.commands().ConfirmSimulatedPayment.Handle(ctx, command.ConfirmSimulatedPayment{AccountID: id, ClientSecret: first.ClientSecret, Outcome: payments.OutcomeSucceeded, Metadata: md}); !errors.Is(err, payments.ErrCheckoutReplaced) {
		t.Fatalf("paying the replaced checkout: %v", err)
	}
	if _, err := e.commands().ConfirmSimulatedPayment.Handle(ctx, command.ConfirmSimulatedPayment{AccountID: id, ClientSecret: second.ClientSecret, Outcome: payments.OutcomeSucceeded, Metadata: md}); err != nil {
		t.Fatal(err)
	}
	e.check(id, 500, domain.StatusActive)

	url, err := e.svc.PortalURL(ctx, id)
	if err != nil || url != "http://app.test"+payments.SimulatedPortalPath {
		t.Fatalf("portal = %q, %v", url, err)
	}
	if _, err := e.commands().CancelSubscription.Handle(ctx, command.SellerSubscription{AccountID: id, Metadata: md}); err != nil {
		t.Fatal(err)
	}
	e.check(id, 500, domain.StatusCancelling)
	if _, err := e.commands().StartSubscription.Handle(ctx, command.StartSubscription{AccountID: id}); domain.ErrorCode(err) != domain.CodeConflict || !strings.Contains(domain.ErrorMessage(err), "Resume it") {
		t.Fatalf("subscribe while cancelling: %v", err)
	}
	if _, err := e.commands().ResumeSubscription.Handle(ctx, command.SellerSubscription{AccountID: id, Metadata: md}); err != nil {
		t.Fatal(err)
	}
	e.check(id, 500, domain.StatusActive)
	if _, err := e.commands().ResumeSubscription.Handle(ctx, command.SellerSubscription{AccountID: id, Metadata: md}); domain.ErrorCode(err) != domain.CodeConflict {
		t.Fatalf("second resume: %v", err)
	}

	// Past due: cancelling ends it at once.
	if _, err := e.commands().AdvanceSimulatedCycle.Handle(ctx, command.AdvanceSimulatedCycle{AccountID: id, Outcome: payments.OutcomeFailed, Metadata: md}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.commands().CancelSubscription.Handle(ctx, command.SellerSubscription{AccountID: id, Metadata: md}); err != nil {
		t.Fatal(err)
	}
	e.check(id, 0, domain.StatusCancelled)

	// The seller was mailed: a receipt, the cancellation, the failed payment.
	rows, err := e.pool.Query(ctx, `SELECT subject FROM mail_outbox WHERE kind = 'billing' AND recipient = 'service@example.com' ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	var subjects []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		subjects = append(subjects, s)
	}
	want := []string{"Your Test Product receipt: Monthly Plan", "Your Test Product subscription ends on", "Your Test Product subscription payment failed"}
	if len(subjects) != len(want) {
		t.Fatalf("billing mails = %q, want %d", subjects, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(subjects[i], w) {
			t.Errorf("mail %d = %q, want %q…", i, subjects[i], w)
		}
	}
}

func TestSimulatedRefundAndDispute(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("simrefund@example.com")
	ctx, md := context.Background(), eventstore.Metadata{Actor: "test"}
	p, err := e.commands().PurchaseCredits.Handle(ctx, command.PurchaseCredits{AccountID: id, Credits: 100})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.commands().RefundSimulatedPayment.Handle(ctx, command.RefundSimulatedPayment{AccountID: id, ClientSecret: p.ClientSecret, Credits: nil, Metadata: md}); !errors.Is(err, payments.ErrNotPaid) {
		t.Fatalf("refund before payment: %v", err)
	}
	if _, err := e.commands().ConfirmSimulatedPayment.Handle(ctx, command.ConfirmSimulatedPayment{AccountID: id, ClientSecret: p.ClientSecret, Outcome: payments.OutcomeSucceeded, Metadata: md}); err != nil {
		t.Fatal(err)
	}
	forty := int64(40)
	sim, err := e.commands().RefundSimulatedPayment.Handle(ctx, command.RefundSimulatedPayment{AccountID: id, ClientSecret: p.ClientSecret, Credits: &forty, Metadata: md})
	if err != nil || sim.Status != domain.PaymentPartiallyRefunded {
		t.Fatalf("partial refund = %+v, %v", sim, err)
	}
	e.check(id, 60, domain.StatusInactive)
	if sim, err = e.commands().DisputeSimulatedPayment.Handle(ctx, command.DisputeSimulatedPayment{AccountID: id, ClientSecret: p.ClientSecret, Status: payments.DisputeOpened, Metadata: md}); err != nil {
		t.Fatal(err)
	}
	if !e.load(id).SpendingFrozen() {
		t.Fatal("not frozen after a dispute opened")
	}
	if _, err = e.commands().DisputeSimulatedPayment.Handle(ctx, command.DisputeSimulatedPayment{AccountID: id, ClientSecret: p.ClientSecret, Status: payments.DisputeLost, Metadata: md}); err != nil {
		t.Fatal(err)
	}
	a := e.load(id)
	if a.SpendingFrozen() || a.Balance(e.clock.Now()) != 0 || a.PaymentStatus(p.PaymentIntentID) != domain.PaymentChargedBack {
		t.Fatalf("after a lost dispute: frozen %v, balance %d, status %q", a.SpendingFrozen(), a.Balance(e.clock.Now()), a.PaymentStatus(p.PaymentIntentID))
	}
	if _, err := e.commands().DisputeSimulatedPayment.Handle(ctx, command.DisputeSimulatedPayment{AccountID: id, ClientSecret: p.ClientSecret, Status: "maybe", Metadata: md}); domain.ErrorCode(err) != domain.CodeInvalid {
		t.Fatalf("bad status: %v", err)
	}
}
