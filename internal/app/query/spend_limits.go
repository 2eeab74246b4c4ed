package query

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
)

// SpendLimitsHandler reads a seller's spend limits and what their periods
// spent so far, from the account's snapshot: the state the next spend is
// decided on (one row read), so the dashboard shows exactly what /v1 will
// answer.
type SpendLimitsHandler struct {
	accounts AccountSnapshots
	now      func() time.Time
}

// NewSpendLimits returns the query on accounts at the clock now.
func NewSpendLimits(accounts AccountSnapshots, now func() time.Time) SpendLimitsHandler {
	return SpendLimitsHandler{accounts: accounts, now: now}
}

// Handle returns accountID's limits at the query's clock.
func (h SpendLimitsHandler) Handle(ctx context.Context, accountID string) (domain.SpendLimits, error) {
	a, err := h.accounts.FromSnapshot(ctx, accountID)
	if err != nil {
		return domain.SpendLimits{}, err
	}
	return a.SpendLimits(h.now()), nil
}
