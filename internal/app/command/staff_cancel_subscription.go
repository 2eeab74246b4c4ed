package command

import (
	"context"

	"github.com/a2e-automation/app/internal/payments"
)

// StaffCancelSubscription is a staff member's cancellation of a seller's
// subscription from the console, at the period end or now, with a reason.
type StaffCancelSubscription struct {
	StaffID, AccountID string
	AtPeriodEnd        bool
	Reason             string // trimmed, within bounds
}

// StaffCancelSubscriptionHandler asks the payment provider for the
// cancellation.
type StaffCancelSubscriptionHandler struct {
	payments *payments.Service
}

// Handle refuses the staff member's own account, then asks the provider
// with no transaction open (payments.CancelByStaff); the ledger changes
// when the provider's customer.subscription event arrives, carrying the
// staff member and the reason.
func (h StaffCancelSubscriptionHandler) Handle(ctx context.Context, cmd StaffCancelSubscription) (payments.StaffAction, error) {
	if cmd.StaffID == cmd.AccountID {
		return payments.StaffAction{}, ErrStaffSelfAction
	}
	out, err := h.payments.CancelByStaff(ctx, payments.StaffCancel{
		AccountID: cmd.AccountID, AtPeriodEnd: cmd.AtPeriodEnd, Actor: StaffActor(cmd.StaffID), Reason: cmd.Reason,
	})
	if err != nil {
		return payments.StaffAction{}, err
	}
	// audit: staff cmd.StaffID cancelled the subscription of account cmd.AccountID (at period end: cmd.AtPeriodEnd, reason cmd.Reason)
	return out, nil
}
