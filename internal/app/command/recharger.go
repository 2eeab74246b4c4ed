package command

import (
	"context"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/payments"
)

// Recharger is the provider's part of auto-recharge (issue 33 item 2):
// saving a card, the off-session charge of a recharge, and reporting its
// outcome. The simulated provider's stand-ins for a recharge's report
// and a card's confirmation are the Simulator's. payments.Service implements it
// (internal/payments/recharge.go); no use case asks which provider it is.
type Recharger interface {
	StartCardSetup(ctx context.Context, a *domain.Account) (payments.SetupCheckout, error)
	RemoveCard(ctx context.Context, accountID string, md eventstore.Metadata) (eventstore.Result, error)
	ChargeRecharge(ctx context.Context, accountID, rechargeID string, credits, amountCents int64) (payments.RechargeOutcome, error)
	RechargeClientSecret(ctx context.Context, accountID, rechargeID, paymentIntentID string) (string, error)
}
