package command

import (
	"context"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/payments"
)

// RefundSimulatedPayment refunds the seller's paid simulated payment of
// ClientSecret: wholly, or the price share of Credits of its credits.
type RefundSimulatedPayment struct {
	AccountID, ClientSecret string
	Credits                 *int64
	Metadata                eventstore.Metadata
}

// RefundSimulatedPaymentHandler refunds through the provider.
type RefundSimulatedPaymentHandler struct{ sim Simulator }

// Handle records what Stripe's charge.refunded would
// (Simulator.RefundSimulated).
func (h RefundSimulatedPaymentHandler) Handle(ctx context.Context, cmd RefundSimulatedPayment) (payments.Simulation, error) {
	return h.sim.RefundSimulated(ctx, cmd.AccountID, cmd.ClientSecret, cmd.Credits, cmd.Metadata)
}
