package command

import (
	"context"

	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/payments"
)

// SavePaymentMethod is a seller's request to save a card for auto-recharge
// (POST /api/account/payment-method).
type SavePaymentMethod struct {
	AccountID string
}

// SavePaymentMethodHandler starts the provider's SetupIntent.
type SavePaymentMethodHandler struct {
	accounts *accounts.Repository
	payments Recharger
}

// Handle refuses an unverified seller (payments.ErrUnverified), then asks
// the provider for a SetupIntent of the seller's customer; its client
// secret is confirmed by Stripe Elements (or the simulated provider's
// form). The card is recorded when the provider reports it saved
// (setup_intent.succeeded, or the simulated confirmation).
func (h SavePaymentMethodHandler) Handle(ctx context.Context, cmd SavePaymentMethod) (payments.SetupCheckout, error) {
	a, err := checkout{accounts: h.accounts}.payer(ctx, cmd.AccountID)
	if err != nil {
		return payments.SetupCheckout{}, err
	}
	return h.payments.StartCardSetup(ctx, a)
}
