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
type AdvanceSimulatedCycleHandler struct{ simulated }

// Handle ends the current billing cycle as Stripe's next invoice.paid
// (outcome succeeded) or invoice.payment_failed would: the notification
// is created at the end of the current period, so applying it expires the
// cycle's monthly credits first, then starts the next cycle with its
// grant, or marks the subscription past due (which retries the same
// invoice). A cancelling subscription ends instead, as Stripe's
// customer.subscription.deleted at the period end.
func (h AdvanceSimulatedCycleHandler) Handle(ctx context.Context, cmd AdvanceSimulatedCycle) (Simulation, error) {
	if cmd.Outcome == "" {
		cmd.Outcome = payments.OutcomeSucceeded
	}
	if err := h.checkOutcome(cmd.Outcome); err != nil {
		return Simulation{}, err
	}
	a, err := h.accounts.FromSnapshot(ctx, cmd.AccountID)
	if err != nil {
		return Simulation{}, err
	}
	if !running(a, h.accounts.Now()) || a.PeriodEnd() == nil {
		return Simulation{}, payments.ErrNothingToRenew
	}
	if ends := a.SubscriptionEndsAt(); ends != nil {
		n, err := h.sim.SimulateEnd(ctx, cmd.AccountID, a.SubscriptionID(), *ends)
		if err != nil {
			return Simulation{}, err
		}
		sim, err := h.report(ctx, n, payments.OutcomeSucceeded, cmd.Metadata)
		sim.Message = "Subscription ended"
		return sim, err
	}
	n, err := h.sim.SimulateRenewal(ctx, cmd.AccountID, a.SubscriptionID(), *a.PeriodEnd(), cmd.Outcome == payments.OutcomeSucceeded)
	if err != nil {
		return Simulation{}, err
	}
	return h.report(ctx, n, cmd.Outcome, cmd.Metadata)
}
