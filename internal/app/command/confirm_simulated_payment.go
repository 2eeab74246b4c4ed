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

// ConfirmSimulatedPaymentHandler records the outcome through the provider.
type ConfirmSimulatedPaymentHandler struct{ sim Provider }

// Handle records exactly what the matching Stripe webhook would
// (Simulator.ConfirmSimulated); the client secret must be the seller's.
func (h ConfirmSimulatedPaymentHandler) Handle(ctx context.Context, cmd ConfirmSimulatedPayment) (payments.Simulation, error) {
	if payments.IsSimulatedSetup(cmd.ClientSecret) { // a card saved for auto-recharge
		return h.sim.ConfirmSimulatedSetup(ctx, cmd.AccountID, cmd.ClientSecret, cmd.Outcome, cmd.Metadata)
	}
	return h.sim.ConfirmSimulated(ctx, cmd.AccountID, cmd.ClientSecret, cmd.Outcome, cmd.Metadata)
}
