package query

import (
	"context"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
)

// SpendLimitsHandler reads a seller's spend limits and what their periods
// spent so far, from the account's snapshot: the state the next spend is
// decided on (one row read), so the dashboard shows exactly what /v1 will
// answer.
type SpendLimitsHandler struct {
	accounts *accounts.Repository
}

// NewSpendLimits returns the query on repo.
func NewSpendLimits(repo *accounts.Repository) SpendLimitsHandler {
	return SpendLimitsHandler{accounts: repo}
}

// Handle returns accountID's limits at the repository's clock.
func (h SpendLimitsHandler) Handle(ctx context.Context, accountID string) (domain.SpendLimits, error) {
	a, err := h.accounts.FromSnapshot(ctx, accountID)
	if err != nil {
		return domain.SpendLimits{}, err
	}
	return a.SpendLimits(h.accounts.Now()), nil
}
