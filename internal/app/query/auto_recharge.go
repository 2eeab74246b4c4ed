package query

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
)

// AutoRechargeHandler reads a seller's auto-recharge settings, saved card
// and state (in flight, waiting for authentication, turned off and why)
// from the account's snapshot: the state the next spend's decision reads,
// as SpendLimitsHandler does.
type AutoRechargeHandler struct {
	accounts AccountSnapshots
	now      func() time.Time
}

// NewAutoRecharge returns the query on accounts at the clock now.
func NewAutoRecharge(accounts AccountSnapshots, now func() time.Time) AutoRechargeHandler {
	return AutoRechargeHandler{accounts: accounts, now: now}
}

// Handle returns accountID's auto-recharge at the query's clock.
func (h AutoRechargeHandler) Handle(ctx context.Context, accountID string) (domain.AutoRechargeView, error) {
	a, err := h.accounts.FromSnapshot(ctx, accountID)
	if err != nil {
		return domain.AutoRechargeView{}, err
	}
	return a.AutoRecharge(h.now()), nil
}
