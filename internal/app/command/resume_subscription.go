package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// ResumeSubscriptionHandler resumes at the provider, then in the ledger.
type ResumeSubscriptionHandler struct{ subscriptionChange }

// Handle checks the rule (domain.Account's ResumeSubscription), asks the
// provider (payments.Service.ResumeAtProvider), then records the resume,
// once should the webhook have recorded it first.
func (h ResumeSubscriptionHandler) Handle(ctx context.Context, cmd SellerSubscription) (eventstore.Result, error) {
	ask := func(ctx context.Context, a *domain.Account, subscriptionID string, now time.Time) error {
		if err := a.ResumeSubscription(now); err != nil {
			return err
		}
		return h.payments.ResumeAtProvider(ctx, cmd.AccountID, subscriptionID)
	}
	return h.run(ctx, cmd.AccountID, cmd.Metadata, ask, func(a *domain.Account, now time.Time) error {
		if a.SubscriptionStatusAt(now) == domain.StatusActive {
			return nil // the webhook recorded it first
		}
		return a.ResumeSubscription(now)
	})
}
