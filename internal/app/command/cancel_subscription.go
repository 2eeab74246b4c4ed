package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// CancelSubscriptionHandler cancels at the provider, then in the ledger.
type CancelSubscriptionHandler struct{ subscriptionChange }

// Handle cancels an active subscription at the end of its period (the
// profile shows cancelling; access and the cycle's credits last until
// then) and a past due one at once: the rule (domain.Account's
// CancelSubscription) is checked before the provider is asked
// (payments.Service.CancelAtProvider), then the cancellation is recorded,
// once should the webhook have recorded it first.
func (h CancelSubscriptionHandler) Handle(ctx context.Context, cmd SellerSubscription) (eventstore.Result, error) {
	ask := func(ctx context.Context, a *domain.Account, subscriptionID string, now time.Time) error {
		pastDue := a.SubscriptionStatusAt(now) == domain.StatusPastDue
		if err := a.CancelSubscription(now); err != nil {
			return err
		}
		return h.payments.CancelAtProvider(ctx, cmd.AccountID, subscriptionID, pastDue)
	}
	return h.run(ctx, cmd.AccountID, cmd.Metadata, ask, func(a *domain.Account, now time.Time) error {
		if st := a.SubscriptionStatusAt(now); st != domain.StatusActive && st != domain.StatusPastDue {
			return nil // cancelling or ended already: the webhook recorded it first
		}
		return a.CancelSubscription(now)
	})
}
