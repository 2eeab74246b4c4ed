package command

import (
	"context"

	"github.com/a2e-automation/app/internal/catalog"
	"github.com/a2e-automation/app/internal/payments"
)

// PurchaseCredits is a seller's checkout of Credits credits.
type PurchaseCredits struct {
	AccountID string
	Credits   int64
}

// PurchaseCreditsHandler prices the credits, checks the seller, then asks
// the provider.
type PurchaseCreditsHandler struct{ checkout }

// Handle prices the credits (catalog.PriceCents, which refuses an amount it
// does not sell), refuses an unverified seller, then starts the provider's
// checkout at that price (payments.Service.CreditsCheckout). The credits are
// granted when the provider reports the payment.
func (h PurchaseCreditsHandler) Handle(ctx context.Context, cmd PurchaseCredits) (payments.Purchase, error) {
	amount, err := catalog.PriceCents(cmd.Credits)
	if err != nil {
		return payments.Purchase{}, err
	}
	a, err := h.payer(ctx, cmd.AccountID)
	if err != nil {
		return payments.Purchase{}, err
	}
	return h.payments.CreditsCheckout(ctx, a, cmd.Credits, amount)
}
