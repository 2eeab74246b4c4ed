package command

import (
	"context"
	"fmt"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/catalog"
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
type RefundSimulatedPaymentHandler struct{ simulated }

// ErrRefundRaced answers a simulated refund that changed nothing because
// another refund of the same payment was applied at the same time.
var ErrRefundRaced = domain.Errorf(domain.CodeConflict,
	"Nothing was refunded: another refund of this payment was applied at the same time. Reload and try again.")

// Handle prices the refund against what the ledger shows refunded already
// and records exactly what Stripe's charge.refunded would: the charge's
// refunded total, so refunds racing each other never take back twice.
func (h RefundSimulatedPaymentHandler) Handle(ctx context.Context, cmd RefundSimulatedPayment) (Simulation, error) {
	p, err := h.paid(ctx, cmd.AccountID, cmd.ClientSecret)
	if err != nil {
		return Simulation{}, err
	}
	a, err := h.accounts.FromSnapshot(ctx, cmd.AccountID)
	if err != nil {
		return Simulation{}, err
	}
	before := a.RefundedCents(p.PaymentID)
	amount := p.AmountCents - before
	if cmd.Credits != nil {
		if *cmd.Credits <= 0 || *cmd.Credits > p.Credits {
			return Simulation{}, domain.Errorf(domain.CodeInvalid, "Credits to refund must be between 1 and %d", p.Credits)
		}
		amount = min(amount, p.AmountCents**cmd.Credits/p.Credits)
	}
	if amount <= 0 {
		return Simulation{}, domain.Errorf(domain.CodeConflict, "This payment is already refunded in full")
	}
	n, err := h.sim.SimulateRefund(p, before+amount, h.accounts.Now())
	if err != nil {
		return Simulation{}, err
	}
	sim, err := h.report(ctx, n, payments.OutcomeSucceeded, cmd.Metadata)
	if err != nil {
		return Simulation{}, err
	}
	if sim.Outcome.Unchanged {
		// A refund racing this one was applied first with the same total:
		// this one took nothing back.
		return Simulation{}, ErrRefundRaced
	}
	total := before + amount // the charge's refunded total, as applied
	sim.Status, sim.Message = domain.PaymentRefundedInFull, fmt.Sprintf("Refunded: %s of %s refunded in total", catalog.Dollars(total), catalog.Dollars(p.AmountCents))
	if total < p.AmountCents {
		sim.Status = domain.PaymentPartiallyRefunded
	}
	return sim, nil
}
