package command

import (
	"context"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/payments"
)

// DisputeSimulatedPayment drives a chargeback dispute of the seller's paid
// simulated payment of ClientSecret: Status payments.DisputeOpened,
// DisputeWon or DisputeLost.
type DisputeSimulatedPayment struct {
	AccountID, ClientSecret, Status string
	Metadata                        eventstore.Metadata
}

// DisputeSimulatedPaymentHandler drives the dispute through the provider.
type DisputeSimulatedPaymentHandler struct{ simulated }

// Handle records what Stripe's charge.dispute.created or .closed would, in
// the order Stripe allows (disputeAllowed).
func (h DisputeSimulatedPaymentHandler) Handle(ctx context.Context, cmd DisputeSimulatedPayment) (Simulation, error) {
	status := cmd.Status
	switch status {
	case payments.DisputeOpened, payments.DisputeWon, payments.DisputeLost:
	default:
		return Simulation{}, domain.Errorf(domain.CodeInvalid, "The status must be %q, %q or %q", payments.DisputeOpened, payments.DisputeWon, payments.DisputeLost)
	}
	p, err := h.paid(ctx, cmd.AccountID, cmd.ClientSecret)
	if err != nil {
		return Simulation{}, err
	}
	a, err := h.accounts.FromSnapshot(ctx, cmd.AccountID)
	if err != nil {
		return Simulation{}, err
	}
	if err := disputeAllowed(a.DisputeStatus(p.DisputeID), status); err != nil {
		return Simulation{}, err
	}
	n, err := h.sim.SimulateDispute(p, status, h.accounts.Now())
	if err != nil {
		return Simulation{}, err
	}
	sim, err := h.report(ctx, n, payments.OutcomeSucceeded, cmd.Metadata)
	if err != nil {
		return Simulation{}, err
	}
	after, err := h.accounts.FromSnapshot(ctx, cmd.AccountID)
	if err != nil {
		return Simulation{}, err
	}
	if sim.Outcome.Unchanged {
		// The same step raced this one and was applied first.
		if err := disputeAllowed(after.DisputeStatus(p.DisputeID), status); err != nil {
			return Simulation{}, err
		}
		return Simulation{}, domain.Errorf(domain.CodeConflict, "Nothing changed: the dispute is %s", after.DisputeStatus(p.DisputeID))
	}
	sim.Status = status
	switch {
	case status == payments.DisputeOpened:
		sim.Message = "Dispute opened: spending is frozen until it closes"
	case after.SpendingFrozen():
		sim.Message = "Dispute " + status + ": spending stays frozen while another dispute is open"
	case status == payments.DisputeWon:
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
	case status == payments.DisputeOpened && current == domain.DisputeOpenStatus:
		return domain.Errorf(domain.CodeConflict, "A dispute of this payment is already open")
	case status == payments.DisputeOpened && current != "":
		return domain.Errorf(domain.CodeConflict, "The dispute of this payment is already closed (%s)", current)
	case status != payments.DisputeOpened && current == "":
		return domain.Errorf(domain.CodeConflict, "No dispute of this payment is open: open one first (status %q)", payments.DisputeOpened)
	case status != payments.DisputeOpened && current != domain.DisputeOpenStatus:
		return domain.Errorf(domain.CodeConflict, "The dispute of this payment is already closed (%s)", current)
	}
	return nil
}
