package payments

import (
	"context"
	"fmt"
	"strings"

	"github.com/stripe/stripe-go/v82"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/catalog"
)

// Dispute statuses the simulated provider drives.
const (
	DisputeOpened = "opened"
	DisputeWon    = "won"
	DisputeLost   = "lost"
)

// ErrNotPaid refuses to refund or dispute a simulated payment never paid.
var ErrNotPaid = domain.Errorf(domain.CodeConflict, "This payment has not been paid")

// paidIntent finds accountID's paid simulated payment of clientSecret.
func (s *Service) paidIntent(ctx context.Context, accountID, clientSecret string) (intent, error) {
	if err := s.provider.simulation(); err != nil {
		return intent{}, err
	}
	in, err := s.simulatedIntent(ctx, accountID, clientSecret)
	if err != nil {
		return intent{}, err
	}
	if in.status != intentSucceeded {
		return intent{}, ErrNotPaid
	}
	return in, nil
}

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

// RefundSimulated refunds accountID's paid simulated payment of
// clientSecret: wholly, or the price share of credits of the credits it
// bought. It records exactly what Stripe's charge.refunded would, through
// Apply.
func (s *Service) RefundSimulated(ctx context.Context, accountID, clientSecret string, credits *int64, md eventstore.Metadata) (Simulation, error) {
	in, err := s.paidIntent(ctx, accountID, clientSecret)
	if err != nil {
		return Simulation{}, err
	}
	a, err := s.accounts.FromSnapshot(ctx, accountID)
	if err != nil {
		return Simulation{}, err
	}
	before := a.RefundedCents(in.paymentID())
	amount := in.amountCents - before
	if credits != nil {
		if *credits <= 0 || *credits > in.credits {
			return Simulation{}, domain.Errorf(domain.CodeInvalid, "Credits to refund must be between 1 and %d", in.credits)
		}
		amount = min(amount, in.amountCents**credits/in.credits)
	}
	if amount <= 0 {
		return Simulation{}, domain.Errorf(domain.CodeConflict, "This payment is already refunded in full")
	}
	ev, err := simulatedEvent(stripe.EventTypeChargeRefunded, s.accounts.Now(), in.charge(before+amount))
	if err != nil {
		return Simulation{}, err
	}
	sim, err := s.simulate(ctx, ev, OutcomeSucceeded, md)
	if err != nil {
		return Simulation{}, err
	}
	if sim.Outcome.Unchanged {
		// A refund racing this one was applied first with the same total:
		// this one took nothing back.
		return Simulation{}, ErrRefundRaced
	}
	total := before + amount // the charge's refunded total, as applied
	sim.Status, sim.Message = domain.PaymentRefundedInFull, fmt.Sprintf("Refunded: %s of %s refunded in total", catalog.Dollars(total), catalog.Dollars(in.amountCents))
	if total < in.amountCents {
		sim.Status = domain.PaymentPartiallyRefunded
	}
	return sim, nil
}

// ErrRefundRaced answers a simulated refund that changed nothing because
// another refund of the same payment was applied at the same time.
var ErrRefundRaced = domain.Errorf(domain.CodeConflict,
	"Nothing was refunded: another refund of this payment was applied at the same time. Reload and try again.")

// DisputeSimulated drives a chargeback dispute of accountID's paid
// simulated payment of clientSecret: opened, won or lost, as Stripe's
// charge.dispute.created and .closed would, through Apply.
func (s *Service) DisputeSimulated(ctx context.Context, accountID, clientSecret, status string, md eventstore.Metadata) (Simulation, error) {
	typ, disputeStatus := stripe.EventTypeChargeDisputeCreated, stripe.DisputeStatusNeedsResponse
	switch status {
	case DisputeOpened:
	case DisputeWon:
		typ, disputeStatus = stripe.EventTypeChargeDisputeClosed, stripe.DisputeStatusWon
	case DisputeLost:
		typ, disputeStatus = stripe.EventTypeChargeDisputeClosed, stripe.DisputeStatusLost
	default:
		return Simulation{}, domain.Errorf(domain.CodeInvalid, "The status must be %q, %q or %q", DisputeOpened, DisputeWon, DisputeLost)
	}
	in, err := s.paidIntent(ctx, accountID, clientSecret)
	if err != nil {
		return Simulation{}, err
	}
	disputeID := "dp_sim_" + strings.TrimPrefix(in.id, simIntent)
	a, err := s.accounts.FromSnapshot(ctx, accountID)
	if err != nil {
		return Simulation{}, err
	}
	if err := disputeAllowed(a.DisputeStatus(disputeID), status); err != nil {
		return Simulation{}, err
	}
	ev, err := simulatedEvent(typ, s.accounts.Now(), &stripe.Dispute{
		ID: disputeID, Object: "dispute", Amount: in.amountCents,
		Currency: stripe.Currency(in.currency), Charge: in.charge(0), PaymentIntent: &stripe.PaymentIntent{ID: in.id},
		Status: disputeStatus, Reason: stripe.DisputeReasonFraudulent,
	})
	if err != nil {
		return Simulation{}, err
	}
	sim, err := s.simulate(ctx, ev, OutcomeSucceeded, md)
	if err != nil {
		return Simulation{}, err
	}
	after, err := s.accounts.FromSnapshot(ctx, accountID)
	if err != nil {
		return Simulation{}, err
	}
	if sim.Outcome.Unchanged {
		// The same step raced this one and was applied first.
		if err := disputeAllowed(after.DisputeStatus(disputeID), status); err != nil {
			return Simulation{}, err
		}
		return Simulation{}, domain.Errorf(domain.CodeConflict, "Nothing changed: the dispute is %s", after.DisputeStatus(disputeID))
	}
	sim.Status = status
	switch {
	case status == DisputeOpened:
		sim.Message = "Dispute opened: spending is frozen until it closes"
	case after.SpendingFrozen():
		sim.Message = "Dispute " + status + ": spending stays frozen while another dispute is open"
	case status == DisputeWon:
		sim.Message = "Dispute won: spending is unfrozen"
	default:
		sim.Message = "Dispute lost: the payment's credits were taken back"
	}
	return sim, nil
}

// disputeAllowed refuses a simulated dispute step its dispute's current
// status (current, "" for none) does not allow: Stripe opens a dispute
// once, and closes only an open one.
func disputeAllowed(current, status string) error {
	switch {
	case status == DisputeOpened && current == domain.DisputeOpenStatus:
		return domain.Errorf(domain.CodeConflict, "A dispute of this payment is already open")
	case status == DisputeOpened && current != "":
		return domain.Errorf(domain.CodeConflict, "The dispute of this payment is already closed (%s)", current)
	case status != DisputeOpened && current == "":
		return domain.Errorf(domain.CodeConflict, "No dispute of this payment is open: open one first (status %q)", DisputeOpened)
	case status != DisputeOpened && current != domain.DisputeOpenStatus:
		return domain.Errorf(domain.CodeConflict, "The dispute of this payment is already closed (%s)", current)
	}
	return nil
}
