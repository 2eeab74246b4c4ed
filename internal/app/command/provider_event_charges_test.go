package command_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/testing/stripetest"
)

// chargeProvider is the simulated provider that also knows what Stripe
// says of some charges and PaymentIntents: stripe-mock answers every charge
// with one fixture without a customer, so it cannot say whose a renewal's
// charge is. TestStripeChargeOwnerAgainstStripeMock checks the call itself.
type chargeProvider struct {
	*payments.Simulated
	charges  map[string]payments.ChargeOwner
	invoices map[string]string // PaymentIntent → invoice
	asked    []string
}

func (p *chargeProvider) ChargeOwner(_ context.Context, id string) (payments.ChargeOwner, error) {
	p.asked = append(p.asked, id)
	return p.charges[id], nil
}

func (p *chargeProvider) InvoiceOfPaymentIntent(_ context.Context, pi string) (string, error) {
	return p.invoices[pi], nil
}

// A dispute of a renewal payment, whose charge Stripe sends as an id,
// freezes spending while open and takes the cycle's credits back when lost,
// as for a pack (issue 31).
func TestDisputeOfARenewal(t *testing.T) {
	p := &chargeProvider{Simulated: payments.NewSimulated(), invoices: map[string]string{"pi_renewal": "in_2"}}
	e := newEnv(t, p)
	id := e.account("renewal-dispute@example.com")
	if _, err := e.pool.Exec(context.Background(),
		`INSERT INTO stripe_customers (customer_id, account_id) VALUES ('cus_renewal', $1)`, id); err != nil {
		t.Fatal(err)
	}
	p.charges = map[string]payments.ChargeOwner{"ch_renewal": {PaymentIntentID: "pi_renewal", CustomerID: "cus_renewal"}}
	e.deliver("evt_paid1", "invoice.paid", invoice("in_1", id, 0, 1, true).Object())
	e.clock.Set(month(1).Add(time.Hour))
	e.deliver("evt_paid2", "invoice.paid", invoice("in_2", id, 1, 2, true).Object())
	e.spendN(id, 100)
	ch := stripetest.Charge{ID: "ch_renewal", PaymentIntentID: "pi_renewal", CustomerID: "cus_renewal", AmountCents: 2999}

	e.deliver("evt_d1", "charge.dispute.created", stripetest.Dispute{ID: "dp_1", Charge: ch, Status: "needs_response"}.Object())
	if len(p.asked) != 1 || p.asked[0] != "ch_renewal" {
		t.Fatalf("charges asked for: %v", p.asked)
	}
	if !e.load(id).SpendingFrozen() {
		t.Fatal("a renewal's dispute did not freeze spending")
	}
	_, err := e.repo.Update(context.Background(), id, eventstore.UpdateOptions{}, spend)
	if !errors.Is(err, domain.ErrSpendingFrozen) && domain.ErrorCode(err) != domain.CodeForbidden {
		t.Fatalf("spend during a dispute: %v", err)
	}
	e.deliver("evt_d2", "charge.dispute.closed", stripetest.Dispute{ID: "dp_1", Charge: ch, Status: "lost"}.Object())
	a := e.load(id)
	if a.SpendingFrozen() || a.Balance(e.clock.Now()) != 0 || a.PaymentStatus("in_2") != domain.PaymentChargedBack {
		t.Fatalf("after a lost dispute: frozen %v, balance %d, status %q; want unfrozen, 0, charged back",
			a.SpendingFrozen(), a.Balance(e.clock.Now()), a.PaymentStatus("in_2"))
	}
}

// A checkout voided by a newer one but paid all the same is flagged for
// staff; their refund's charge.refunded is recorded, once (issue 31).
func TestRefundOfAVoidedButPaidCheckout(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	id := e.account("voided@example.com")
	if _, err := e.pool.Exec(context.Background(), `INSERT INTO payment_intents
		(intent_id, account_id, kind, credits, amount_cents, currency, subscription_id, invoice_id, status)
		VALUES ('pi_in1', $1, 'subscription', 500, 2999, 'usd', 'sub_1', 'in_1', 'voided')`, id); err != nil {
		t.Fatal(err)
	}
	e.deliver("evt_paid", "invoice.paid", invoice("in_1", id, 0, 1, true).Object())
	if st := e.load(id).PaymentStatus("in_1"); st != domain.PaymentNeedsReview {
		t.Fatalf("voided checkout paid: %q, want needs review", st)
	}
	refunded := stripetest.Charge{ID: "ch_1", PaymentIntentID: "pi_in1", AccountID: id, AmountCents: 2999, RefundedCents: 2999}.Object()
	if _, err := e.deliverErr("evt_refunded", "charge.refunded", refunded); err != nil {
		t.Fatalf("charge.refunded of a voided but paid checkout: %v", err)
	}
	e.deliver("evt_refunded_again", "charge.refunded", refunded)
	a := e.load(id)
	if a.PaymentStatus("in_1") != domain.PaymentRefundedInFull || len(e.history(id, "PaymentRefunded")) != 1 || a.Balance(e.clock.Now()) != 0 {
		t.Fatalf("status %q, %d refunds, balance %d; want refunded in full once, 0",
			a.PaymentStatus("in_1"), len(e.history(id, "PaymentRefunded")), a.Balance(e.clock.Now()))
	}
}
