package command

import (
	"context"

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
type DisputeSimulatedPaymentHandler struct{ sim Simulator }

// Handle records what Stripe's charge.dispute.created or .closed would
// (Simulator.DisputeSimulated).
func (h DisputeSimulatedPaymentHandler) Handle(ctx context.Context, cmd DisputeSimulatedPayment) (payments.Simulation, error) {
	return h.sim.DisputeSimulated(ctx, cmd.AccountID, cmd.ClientSecret, cmd.Status, cmd.Metadata)
}
