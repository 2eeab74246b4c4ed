package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/catalog"
)

// SetAutoRecharge is a seller's auto-recharge settings (PUT
// /api/account/auto-recharge).
type SetAutoRecharge struct {
	AccountID         string
	Enabled           bool
	ThresholdCredits  int64
	PackCredits       int64
	MonthlyLimitCents int64
	Metadata          eventstore.Metadata
}

// SetAutoRechargeHandler records the settings in the account's stream.
type SetAutoRechargeHandler struct {
	accounts *accounts.Repository
}

// ErrPackNotSold refuses a pack size the catalogue does not sell.
var ErrPackNotSold = domain.Errorf(domain.CodeInvalid, "packCredits must be a pack size the catalogue sells")

// PackPrice is the catalogue's price of a recharge pack of credits: one of
// its packages (catalog.Packages), or ErrPackNotSold.
func PackPrice(credits int64) (int64, error) {
	for _, p := range catalog.Packages() {
		if p.Credits == credits {
			return p.PriceCents, nil
		}
	}
	return 0, ErrPackNotSold
}

// Handle prices the pack (PackPrice), then records AutoRechargeSet
// (domain.Account.SetAutoRecharge: a verified account, a card to turn it
// on, bounds, a monthly limit of at least one pack) and returns the
// settings as they stand afterwards.
func (h SetAutoRechargeHandler) Handle(ctx context.Context, cmd SetAutoRecharge) (domain.AutoRechargeView, eventstore.Result, error) {
	price, err := PackPrice(cmd.PackCredits)
	if err != nil {
		return domain.AutoRechargeView{}, eventstore.Result{}, err
	}
	var out domain.AutoRechargeView
	res, err := h.accounts.Change(ctx, cmd.AccountID, eventstore.UpdateOptions{Metadata: cmd.Metadata},
		func(_ context.Context, _ accounts.Work, a *domain.Account, now time.Time) (any, error) {
			err := a.SetAutoRecharge(domain.AutoRecharge{Enabled: cmd.Enabled, ThresholdCredits: cmd.ThresholdCredits,
				PackCredits: cmd.PackCredits, PackAmountCents: price, MonthlyLimitCents: cmd.MonthlyLimitCents}, now)
			if err != nil {
				return nil, err
			}
			out = a.AutoRecharge(now)
			return nil, nil
		})
	return out, res, err
}
