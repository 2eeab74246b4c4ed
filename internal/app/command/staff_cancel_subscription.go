package command

import (
	"context"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/staff"
	"github.com/a2e-automation/app/internal/staffaudit"
)

// StaffCancelSubscription is a staff member's cancellation of a seller's
// subscription from the console, at the period end or now, with a reason.
type StaffCancelSubscription struct {
	StaffID, AccountID string
	AtPeriodEnd        bool
	Reason             string // trimmed, within bounds
	RequestID          string // the HTTP request's, for the audit line
}

// StaffCancelSubscriptionHandler asks the payment provider for the
// cancellation.
type StaffCancelSubscriptionHandler struct {
	simulated
	payments StaffMoney
}

// Handle refuses the staff member's own account (staff.RefuseOwnAccount),
// then asks the provider with no transaction open (payments.CancelByStaff)
// if the subscription can be cancelled that way (cancellable, asked again
// by every attempt that waited for another); the audit line
// (staffaudit.ActionCancellation) is written in the transaction that
// records the provider's answer. The ledger changes when the provider
// reports the subscription's change, carrying the staff member and the
// reason: by webhook, or at once (the simulated provider).
func (h StaffCancelSubscriptionHandler) Handle(ctx context.Context, cmd StaffCancelSubscription) (payments.StaffAction, error) {
	if err := staff.RefuseOwnAccount(cmd.StaffID, cmd.AccountID); err != nil {
		return payments.StaffAction{}, err
	}
	when := "now"
	if cmd.AtPeriodEnd {
		when = "at the period end"
	}
	return h.payments.CancelByStaff(ctx, payments.StaffCancel{
		AccountID: cmd.AccountID, AtPeriodEnd: cmd.AtPeriodEnd, Actor: StaffActor(cmd.StaffID), Reason: cmd.Reason,
		Cancellable: func(ctx context.Context) (*domain.Account, error) { return h.cancellable(ctx, cmd) },
		Audit: func(payments.StaffAction) staffaudit.Entry {
			return staffaudit.Entry{Actor: cmd.StaffID, AccountID: cmd.AccountID,
				Action: staffaudit.ActionCancellation, Detail: "cancel " + when + ": " + cmd.Reason, RequestID: cmd.RequestID}
		},
		Report: h.reportNow,
	})
}

// cancellable is the account of cmd if its subscription can be cancelled
// the way cmd asks, else the conflict that says why not: an active
// subscription may end either way, a cancelling one only now, a past due
// one (no paid period left) only now.
func (h StaffCancelSubscriptionHandler) cancellable(ctx context.Context, cmd StaffCancelSubscription) (*domain.Account, error) {
	a, err := h.accounts.FromSnapshot(ctx, cmd.AccountID)
	if err != nil {
		return nil, err
	}
	now := h.accounts.Now()
	switch status := a.SubscriptionStatusAt(now); {
	case status == domain.StatusCancelling && cmd.AtPeriodEnd:
		return nil, domain.Errorf(domain.CodeConflict, "The subscription is already cancelled; it stays active until %s",
			a.SubscriptionEndsAt().Format("January 2, 2006"))
	case status == domain.StatusPastDue && cmd.AtPeriodEnd:
		return nil, domain.Errorf(domain.CodeConflict, "The subscription is past due: it has no paid period to run out. Cancel it now instead.")
	case !running(a, now):
		return nil, domain.Errorf(domain.CodeConflict, "No active subscription to cancel")
	}
	return a, nil
}
