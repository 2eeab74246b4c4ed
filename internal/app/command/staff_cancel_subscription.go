package command

import (
	"context"

	"github.com/jackc/pgx/v5"

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
	payments StaffMoney
}

// Handle refuses the staff member's own account (staff.RefuseOwnAccount),
// then asks the provider with no transaction open (payments.CancelByStaff);
// the audit line (staffaudit.ActionCancellation) is written in the
// transaction that records the provider's answer. The ledger changes when
// the provider's customer.subscription event arrives, carrying the staff
// member and the reason.
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
		Settled: func(ctx context.Context, tx pgx.Tx, _ payments.StaffAction) error {
			return staffaudit.RecordTx(ctx, tx, staffaudit.Entry{Actor: cmd.StaffID, AccountID: cmd.AccountID,
				Action: staffaudit.ActionCancellation, Detail: "cancel " + when + ": " + cmd.Reason, RequestID: cmd.RequestID})
		},
	})
}
