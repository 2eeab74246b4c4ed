package command

import (
	"context"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/payments"
)

// AdvanceSimulatedCycle ends the seller's current billing cycle with the
// simulated provider, paid or failed (Outcome; "" is
// payments.OutcomeSucceeded).
type AdvanceSimulatedCycle struct {
	AccountID, Outcome string
	Metadata           eventstore.Metadata
}

// AdvanceSimulatedCycleHandler renews through the provider.
type AdvanceSimulatedCycleHandler struct{ sim Simulator }

// Handle records what Stripe's next invoice.paid (or
// invoice.payment_failed) would (Simulator.AdvanceSimulatedCycle).
func (h AdvanceSimulatedCycleHandler) Handle(ctx context.Context, cmd AdvanceSimulatedCycle) (payments.Simulation, error) {
	if cmd.Outcome == "" {
		cmd.Outcome = payments.OutcomeSucceeded
	}
	return h.sim.AdvanceSimulatedCycle(ctx, cmd.AccountID, cmd.Outcome, cmd.Metadata)
}
