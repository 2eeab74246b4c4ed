package command

import (
	"context"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/payments"
)

// ConfirmSimulatedPayment is the development stand-in for the browser
// confirming a payment with the simulated provider: the seller's checkout of
// ClientSecret, paid or declined (Outcome, payments.OutcomeSucceeded or
// payments.OutcomeFailed).
type ConfirmSimulatedPayment struct {
	AccountID, ClientSecret, Outcome string
	Metadata                         eventstore.Metadata
}

// ConfirmSimulatedPaymentHandler records the outcome the provider reports.
type ConfirmSimulatedPaymentHandler struct{ simulated }

// Handle records exactly what the matching Stripe webhook would: the
// client secret must be the seller's, its checkout neither confirmed nor
// replaced, and a subscription's seller must not have one running
// (alreadySubscribed). A subscription's first invoice pays the
// month from now.
func (h ConfirmSimulatedPaymentHandler) Handle(ctx context.Context, cmd ConfirmSimulatedPayment) (Simulation, error) {
	if err := h.checkOutcome(cmd.Outcome); err != nil {
		return Simulation{}, err
	}
	p, err := h.sim.SimulatedPayment(ctx, cmd.AccountID, cmd.ClientSecret)
	if err != nil {
		return Simulation{}, err
	}
	if p.Paid {
		return Simulation{}, payments.ErrAlreadyConfirmed
	}
	if p.Voided {
		return Simulation{}, payments.ErrCheckoutReplaced
	}
	now := h.accounts.Now()
	if p.Kind == payments.KindSubscription {
		a, err := h.accounts.FromSnapshot(ctx, cmd.AccountID)
		if err != nil {
			return Simulation{}, err
		}
		if err := alreadySubscribed(a, now); err != nil {
			return Simulation{}, err
		}
	}
	n, err := h.sim.SimulatePayment(p, cmd.Outcome == payments.OutcomeSucceeded, now)
	if err != nil {
		return Simulation{}, err
	}
	return h.report(ctx, n, cmd.Outcome, cmd.Metadata)
}
