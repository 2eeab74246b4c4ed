package command

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/payments"
)

// CancelSubscription is a seller's cancellation of their own subscription.
type CancelSubscription struct {
	AccountID string
	Metadata  eventstore.Metadata
}

// CancelSubscriptionHandler cancels at the provider, then in the ledger.
type CancelSubscriptionHandler struct{ subscriptionChange }

// Handle cancels an active subscription at the end of its period (the
// profile shows cancelling; access and the cycle's credits last until
// then) and a past due one at once. The rule (domain.Account's
// CancelSubscription) is checked on the snapshot before the provider is
// asked, with no lock held, so the seller's other calls never wait on it; a
// cancellation the provider took but the ledger did not record (a crash, a
// lost answer) is recorded by the next attempt, which reuses the
// reservation's key, or by the webhook.
func (h CancelSubscriptionHandler) Handle(ctx context.Context, cmd CancelSubscription) (eventstore.Result, error) {
	a, err := h.accounts.FromSnapshot(ctx, cmd.AccountID)
	if err != nil {
		return eventstore.Result{}, err
	}
	subscriptionID, now := a.SubscriptionID(), h.accounts.Now()
	pastDue := a.SubscriptionStatusAt(now) == domain.StatusPastDue
	if err := a.CancelSubscription(now); err != nil { // the rule, checked before asking the provider
		return eventstore.Result{}, err
	}
	if err := h.payments.CancelAtProvider(ctx, cmd.AccountID, subscriptionID, pastDue); err != nil {
		return eventstore.Result{}, err
	}
	return h.record(ctx, cmd.AccountID, subscriptionID, cmd.Metadata, func(a *domain.Account, now time.Time) error {
		if st := a.SubscriptionStatusAt(now); st != domain.StatusActive && st != domain.StatusPastDue {
			return nil // the webhook recorded it first (cancelling or ended): done, once
		}
		return a.CancelSubscription(now)
	})
}

// subscriptionChange is what a seller's cancel and resume share: the
// provider, then the account's transaction.
type subscriptionChange struct {
	accounts *accounts.Repository
	payments *payments.Service
	queued   func() // the mail sender's nudge; nil: none
}

// record runs change on the account in its transaction, after checking that
// the subscription is still the one the provider changed, and queues the
// billing mail its events deserve.
func (c subscriptionChange) record(ctx context.Context, accountID, subscriptionID string, md eventstore.Metadata,
	change func(a *domain.Account, now time.Time) error) (eventstore.Result, error) {
	if c.queued != nil {
		defer c.queued()
	}
	return c.accounts.Update(ctx, accountID, eventstore.UpdateOptions{Metadata: md},
		func(ctx context.Context, tx pgx.Tx, a *domain.Account, now time.Time) (any, error) {
			if a.SubscriptionID() != subscriptionID {
				return nil, domain.Errorf(domain.CodeConflict, "The subscription changed meanwhile; please reload and try again")
			}
			if err := change(a, now); err != nil {
				return nil, err
			}
			return nil, c.payments.QueueBillingMail(ctx, tx, a, now)
		})
}
