package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// ResumeSubscription is a seller's undoing of their pending cancellation.
type ResumeSubscription struct {
	AccountID string
	Metadata  eventstore.Metadata
}

// ResumeSubscriptionHandler resumes at the provider, then in the ledger.
type ResumeSubscriptionHandler struct{ subscriptionChange }

// Handle checks the rule (domain.Account's ResumeSubscription) on the
// snapshot, asks the provider with no lock held, then records the resume,
// as CancelSubscriptionHandler does.
func (h ResumeSubscriptionHandler) Handle(ctx context.Context, cmd ResumeSubscription) (eventstore.Result, error) {
	a, err := h.accounts.FromSnapshot(ctx, cmd.AccountID)
	if err != nil {
		return eventstore.Result{}, err
	}
	subscriptionID := a.SubscriptionID()
	if err := a.ResumeSubscription(h.accounts.Now()); err != nil {
		return eventstore.Result{}, err
	}
	if err := h.payments.ResumeAtProvider(ctx, cmd.AccountID, subscriptionID); err != nil {
		return eventstore.Result{}, err
	}
	return h.record(ctx, cmd.AccountID, subscriptionID, cmd.Metadata, func(a *domain.Account, now time.Time) error {
		if a.SubscriptionStatusAt(now) == domain.StatusActive {
			return nil // the webhook recorded it first
		}
		return a.ResumeSubscription(now)
	})
}
