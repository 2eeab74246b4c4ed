package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/payments"
)

// StartSubscription is a seller's checkout of the monthly plan.
type StartSubscription struct {
	AccountID string
}

// StartSubscriptionHandler checks the seller, then asks the provider.
type StartSubscriptionHandler struct{ checkout }

// Handle refuses an unverified seller and one whose subscription is still
// running (alreadySubscribed says what to do instead), then starts the
// provider's checkout (payments.Service.SubscriptionCheckout), whose
// client secret pays the first invoice. The ledger changes when the
// provider reports that invoice paid.
func (h StartSubscriptionHandler) Handle(ctx context.Context, cmd StartSubscription) (payments.Checkout, error) {
	a, err := h.payer(ctx, cmd.AccountID)
	if err != nil {
		return payments.Checkout{}, err
	}
	if err := alreadySubscribed(a, h.accounts.Now()); err != nil {
		return payments.Checkout{}, err
	}
	return h.payments.SubscriptionCheckout(ctx, a)
}

// running reports whether a's subscription is active, cancelling (before
// its end) or past due at now: the seller's current subscription.
func running(a *domain.Account, now time.Time) bool {
	return !domain.StatusAllowsSubscribing(a.SubscriptionStatusAt(now))
}

// alreadySubscribed refuses a new subscription while one is running,
// saying what to do instead.
func alreadySubscribed(a *domain.Account, now time.Time) error {
	if !running(a, now) {
		return nil
	}
	switch a.SubscriptionStatusAt(now) {
	case domain.StatusActive:
		return payments.ErrAlreadySubscribed
	case domain.StatusCancelling:
		return domain.Errorf(domain.CodeConflict, "Your subscription is active until %s. Resume it instead of subscribing again.",
			a.SubscriptionEndsAt().Format("January 2, 2006"))
	case domain.StatusPastDue:
		return domain.Errorf(domain.CodeConflict, "Your subscription payment is past due. Update your payment method, or cancel the subscription before subscribing again.")
	}
	return nil
}
