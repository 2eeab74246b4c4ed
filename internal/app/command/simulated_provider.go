package command

import (
	"context"
	"fmt"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/payments"
)

// Simulation is the answer of a simulated payment step: its outcome in the
// webapp's words and what was appended.
type Simulation struct {
	Status  string // payments.OutcomeSucceeded or OutcomeFailed, or the step's own
	Message string
	Outcome Outcome
}

// simulated is what the simulated provider's development commands share:
// the provider, which builds the notification Stripe would send for a
// step, and the path every notification takes to the ledger.
type simulated struct {
	notifications
	sim Simulator
}

// checkOutcome refuses the simulated flows when another provider is
// active, and outcomes other than succeeded and failed.
func (s simulated) checkOutcome(outcome string) error {
	if err := s.sim.Simulation(); err != nil {
		return err
	}
	if outcome != payments.OutcomeSucceeded && outcome != payments.OutcomeFailed {
		return domain.Errorf(domain.CodeInvalid, "The outcome must be %q or %q", payments.OutcomeSucceeded, payments.OutcomeFailed)
	}
	return nil
}

// report applies the simulated provider's notification n like a
// webhook's, as the simulated provider's doing, and answers outcome.
func (s simulated) report(ctx context.Context, n payments.Notification, outcome string, md eventstore.Metadata) (Simulation, error) {
	md.Actor = "simulated-provider"
	out, err := s.apply(ctx, n, md)
	if err != nil {
		return Simulation{}, err
	}
	if out.Ignored != "" {
		return Simulation{}, fmt.Errorf("simulated %s %s ignored: %s", n.Type, n.ID, out.Ignored)
	}
	sim := Simulation{Status: outcome, Message: "Payment succeeded", Outcome: out}
	if outcome == payments.OutcomeFailed {
		sim.Message = payments.DeclineMessage
	}
	return sim, nil
}

// reportNow is report for a staff action the simulated provider reports
// at once (payments.Report): the position the ledger reached.
func (s simulated) reportNow(ctx context.Context, n payments.Notification) (int64, error) {
	sim, err := s.report(ctx, n, payments.OutcomeSucceeded, eventstore.Metadata{})
	return sim.Outcome.Result.LastPosition, err
}

// paid finds the seller's paid simulated payment of clientSecret.
func (s simulated) paid(ctx context.Context, accountID, clientSecret string) (payments.SimulatedPayment, error) {
	p, err := s.sim.SimulatedPayment(ctx, accountID, clientSecret)
	if err != nil {
		return payments.SimulatedPayment{}, err
	}
	if !p.Paid {
		return payments.SimulatedPayment{}, payments.ErrNotPaid
	}
	return p, nil
}
