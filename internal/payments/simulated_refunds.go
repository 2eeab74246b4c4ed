package payments

import (
	"strings"
	"time"

	"github.com/stripe/stripe-go/v82"

	"github.com/a2e-automation/app/domain"
)

// Dispute statuses the simulated provider drives.
const (
	DisputeOpened = "opened"
	DisputeWon    = "won"
	DisputeLost   = "lost"
)

// ErrNotPaid refuses to refund or dispute a simulated payment never paid.
var ErrNotPaid = domain.Errorf(domain.CodeConflict, "This payment has not been paid")

// paymentID is the ledger's id of the payment: the invoice of a
// subscription, the PaymentIntent of a credit pack.
func (in intent) paymentID() string {
	if in.kind == KindSubscription {
		return in.invoiceID
	}
	return in.id
}

// charge is the simulated charge of the payment, as Stripe's charge events
// carry it.
func (in intent) charge(refunded int64) *stripe.Charge {
	ch := &stripe.Charge{
		ID: "ch_sim_" + strings.TrimPrefix(in.id, simIntent), Object: "charge", Amount: in.amountCents,
		AmountCaptured: in.amountCents, AmountRefunded: refunded, Refunded: refunded >= in.amountCents,
		Currency: stripe.Currency(in.currency), Customer: &stripe.Customer{ID: in.customerID},
		PaymentIntent: &stripe.PaymentIntent{ID: in.id}, Paid: true, Status: stripe.ChargeStatusSucceeded,
	}
	if in.kind == KindCredits {
		ch.Metadata = intentMetadata(in.accountID, in.credits)
	}
	return ch
}

// SimulateRefund is Stripe's charge.refunded of p at at, whose charge is
// refunded refundedTotal in all.
func (s *Service) SimulateRefund(p SimulatedPayment, refundedTotal int64, at time.Time) (Notification, error) {
	return simulatedEvent(stripe.EventTypeChargeRefunded, at, p.in.charge(refundedTotal))
}

// SimulateDispute is Stripe's charge.dispute.created (status
// DisputeOpened) or .closed (DisputeWon, DisputeLost) of p at at.
func (s *Service) SimulateDispute(p SimulatedPayment, status string, at time.Time) (Notification, error) {
	typ, disputeStatus := stripe.EventTypeChargeDisputeCreated, stripe.DisputeStatusNeedsResponse
	switch status {
	case DisputeWon:
		typ, disputeStatus = stripe.EventTypeChargeDisputeClosed, stripe.DisputeStatusWon
	case DisputeLost:
		typ, disputeStatus = stripe.EventTypeChargeDisputeClosed, stripe.DisputeStatusLost
	}
	in := p.in
	return simulatedEvent(typ, at, &stripe.Dispute{
		ID: p.DisputeID, Object: "dispute", Amount: in.amountCents,
		Currency: stripe.Currency(in.currency), Charge: in.charge(0), PaymentIntent: &stripe.PaymentIntent{ID: in.id},
		Status: disputeStatus, Reason: stripe.DisputeReasonFraudulent,
	})
}
