package command

import (
	"context"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/payments"
)

// Recharger is the provider's part of auto-recharge (issue 33 item 2):
// saving a card, the off-session charge of a recharge, and reporting its
// outcome the way the provider does. payments.Service implements it
// (internal/payments/recharge.go); no use case asks which provider it is.
type Recharger interface {
	StartCardSetup(ctx context.Context, a *domain.Account) (payments.SetupCheckout, error)
	RemoveCard(ctx context.Context, accountID string, md eventstore.Metadata) (eventstore.Result, error)
	ChargeRecharge(ctx context.Context, accountID, rechargeID string, credits, amountCents int64) (payments.RechargeOutcome, error)
	ReportRecharge(ctx context.Context, accountID, rechargeID string, credits int64, out payments.RechargeOutcome, md eventstore.Metadata) error
	ConfirmSimulatedSetup(ctx context.Context, accountID, clientSecret, outcome string, md eventstore.Metadata) (payments.Simulation, error)
	RechargeClientSecret(ctx context.Context, accountID, rechargeID, paymentIntentID string) (string, error)
}
