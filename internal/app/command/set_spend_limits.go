package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
)

// SetSpendLimits is a seller's caps on metered spending: credits per UTC
// day and per billing month; nil removes a cap.
type SetSpendLimits struct {
	AccountID string
	Daily     *int64
	Monthly   *int64
	Metadata  eventstore.Metadata
}

// SetSpendLimitsHandler records the limits in the account's stream.
type SetSpendLimitsHandler struct {
	accounts *accounts.Repository
}

// NewSetSpendLimits returns the use case on repo.
func NewSetSpendLimits(repo *accounts.Repository) SetSpendLimitsHandler {
	return SetSpendLimitsHandler{accounts: repo}
}

// Handle records SpendLimitsSet (domain.Account's SetSpendLimits: the email
// verified, each limit 0 to domain.MaxSpendLimit) and returns the limits as
// they stand afterwards, with the spending of their periods. The next spend
// is decided on them: the spend's own decision reads them from the account.
func (h SetSpendLimitsHandler) Handle(ctx context.Context, cmd SetSpendLimits) (domain.SpendLimits, error) {
	var out domain.SpendLimits
	_, err := h.accounts.Change(ctx, cmd.AccountID, eventstore.UpdateOptions{Metadata: cmd.Metadata},
		func(_ context.Context, _ accounts.Work, a *domain.Account, now time.Time) (any, error) {
			if err := a.SetSpendLimits(cmd.Daily, cmd.Monthly, now); err != nil {
				return nil, err
			}
			out = a.SpendLimits(now)
			return nil, nil
		})
	return out, err
}
