package query

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
)

// AccountSnapshots rebuilds an account from its snapshot and the events
// after it (accounts.Repository).
type AccountSnapshots interface {
	FromSnapshot(ctx context.Context, id string) (*domain.Account, error)
}

// DesktopAccount is GET /v1/account's read: the account itself (not a read
// table), so it agrees with the metered answer just received.
type DesktopAccount struct {
	Email              string
	CreditsAvailable   int64
	SubscriptionStatus string
	SpendingFrozen     bool
	CreditDebt         int64
	Credits            domain.Breakdown
}

// DesktopAccountHandler reads the desktop client's account.
type DesktopAccountHandler struct {
	accounts AccountSnapshots
	now      func() time.Time
}

// Handle is accountID's email, balance and standing now.
func (h DesktopAccountHandler) Handle(ctx context.Context, accountID string) (DesktopAccount, error) {
	a, err := h.accounts.FromSnapshot(ctx, accountID)
	if err != nil {
		return DesktopAccount{}, err
	}
	now := h.now()
	return DesktopAccount{Email: a.Email(), CreditsAvailable: a.Balance(now), SubscriptionStatus: a.SubscriptionStatusAt(now),
		SpendingFrozen: a.SpendingFrozen(), CreditDebt: a.CreditDebt(), Credits: a.CreditBreakdown(now)}, nil
}
