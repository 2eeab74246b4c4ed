package command

import (
	"context"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/payments"
)

// checkout is what a seller's checkouts (a subscription, a credit purchase)
// share: the account, read from its snapshot, and the provider.
type checkout struct {
	accounts *accounts.Repository
	payments PaymentStarter
}

// payer reads the account from its snapshot and refuses one whose email
// address is not verified (payments.ErrUnverified): no provider object is
// made for it.
func (c checkout) payer(ctx context.Context, accountID string) (*domain.Account, error) {
	a, err := c.accounts.FromSnapshot(ctx, accountID)
	if err != nil {
		return nil, err
	}
	if !a.IsVerified() {
		return nil, payments.ErrUnverified
	}
	return a, nil
}
