package command

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
)

// SellerSubscription is the command of a seller's cancel or resume of
// their own subscription (CancelSubscriptionHandler, ResumeSubscriptionHandler).
type SellerSubscription struct {
	AccountID string
	Metadata  eventstore.Metadata
}

// subscriptionChange is what a seller's cancel and resume share: the rule
// on the snapshot, the provider, then the account's transaction.
type subscriptionChange struct {
	accounts *accounts.Repository
	payments SubscriptionChanger
	queued   func() // the mail sender's nudge; nil: none
}

// run reads the account from its snapshot and lets ask check the rule on
// it and ask the provider, with no lock held, so the seller's other calls
// never wait on the provider. Then it runs record on the account in its
// transaction, after checking that the subscription is still the one the
// provider changed, and queues the billing mail its events deserve. A
// change the provider took but the ledger did not record (a crash, a lost
// answer) is recorded by the next attempt, which reuses the reservation's
// key, or by the webhook.
func (c subscriptionChange) run(ctx context.Context, accountID string, md eventstore.Metadata,
	ask func(ctx context.Context, a *domain.Account, subscriptionID string, now time.Time) error,
	record func(a *domain.Account, now time.Time) error) (eventstore.Result, error) {
	a, err := c.accounts.FromSnapshot(ctx, accountID)
	if err != nil {
		return eventstore.Result{}, err
	}
	subscriptionID := a.SubscriptionID()
	if err := ask(ctx, a, subscriptionID, c.accounts.Now()); err != nil {
		return eventstore.Result{}, err
	}
	if c.queued != nil {
		defer c.queued()
	}
	return c.accounts.Update(ctx, accountID, eventstore.UpdateOptions{Metadata: md},
		func(ctx context.Context, tx pgx.Tx, a *domain.Account, now time.Time) (any, error) {
			if a.SubscriptionID() != subscriptionID {
				return nil, domain.Errorf(domain.CodeConflict, "The subscription changed meanwhile; please reload and try again")
			}
			if err := record(a, now); err != nil {
				return nil, err
			}
			return nil, c.payments.QueueBillingMail(ctx, tx, a, now)
		})
}
