package command

import (
	"context"

	"github.com/a2e-automation/app/internal/payments"
)

// StartSubscription is a seller's checkout of the monthly plan.
type StartSubscription struct {
	AccountID string
}

// StartSubscriptionHandler checks the seller, then asks the provider.
type StartSubscriptionHandler struct{ checkout }

// Handle refuses an unverified seller and one whose subscription is still
// running (payments.AlreadySubscribed says what to do instead), then starts
// the provider's checkout (payments.Service.SubscriptionCheckout), whose
// client secret pays the first invoice. The ledger changes when the
// provider reports that invoice paid.
func (h StartSubscriptionHandler) Handle(ctx context.Context, cmd StartSubscription) (payments.Checkout, error) {
	a, err := h.payer(ctx, cmd.AccountID)
	if err != nil {
		return payments.Checkout{}, err
	}
	if err := payments.AlreadySubscribed(a, h.accounts.Now()); err != nil {
		return payments.Checkout{}, err
	}
	return h.payments.SubscriptionCheckout(ctx, a)
}
