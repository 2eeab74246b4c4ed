package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/payments"
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
}

// run reads the account from its snapshot and lets ask check the rule on
// it and ask the provider, with no lock held, so the seller's other calls
// never wait on the provider. Then it runs record on the account in its
// transaction, after checking that the subscription is still the one the
// provider changed; the provider's storage queues the billing mail its
// events deserve in that transaction (Record). A
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
	return c.payments.Record(ctx, payments.AccountChange{AccountID: accountID, Options: eventstore.UpdateOptions{Metadata: md},
		Decide: func(a *domain.Account, now time.Time) error {
			if a.SubscriptionID() != subscriptionID {
				return domain.Errorf(domain.CodeConflict, "The subscription changed meanwhile; please reload and try again")
			}
			return record(a, now)
		}})
}
