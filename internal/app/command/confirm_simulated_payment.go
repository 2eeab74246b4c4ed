package command

import (
	"context"
	"slices"
	"strings"

	"github.com/a2e-automation/app/domain"
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
	if payments.IsSimulatedSetup(cmd.ClientSecret) { // a card saved for auto-recharge
		return h.confirmSetup(ctx, cmd)
	}
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

// confirmSetup confirms the seller's simulated SetupIntent: the outcome
// names the card saved (payments.SimulatedSetupOutcomes), as Stripe's test
// cards do; payments.OutcomeFailed saves none. A SetupIntent saves a card
// once.
func (h ConfirmSimulatedPaymentHandler) confirmSetup(ctx context.Context, cmd ConfirmSimulatedPayment) (Simulation, error) {
	if err := h.sim.Simulation(); err != nil {
		return Simulation{}, err
	}
	if !slices.Contains(payments.SimulatedSetupOutcomes, cmd.Outcome) {
		return Simulation{}, domain.Errorf(domain.CodeInvalid, "The outcome must be one of %s", strings.Join(payments.SimulatedSetupOutcomes, ", "))
	}
	si, err := h.sim.SimulatedSetup(ctx, cmd.AccountID, cmd.ClientSecret)
	if err != nil {
		return Simulation{}, err
	}
	if si.Succeeded {
		return Simulation{}, payments.ErrAlreadyConfirmed
	}
	if cmd.Outcome == payments.OutcomeFailed {
		if err := h.sim.FailSimulatedSetup(ctx, si); err != nil {
			return Simulation{}, err
		}
		return Simulation{Status: payments.OutcomeFailed, Message: payments.DeclineMessage}, nil
	}
	n, err := h.sim.SimulateSetup(si, cmd.Outcome, h.accounts.Now())
	if err != nil {
		return Simulation{}, err
	}
	sim, err := h.report(ctx, n, payments.OutcomeSucceeded, cmd.Metadata)
	sim.Message = "Card saved"
	return sim, err
}
