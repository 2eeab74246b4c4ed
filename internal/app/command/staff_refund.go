package command

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/internal/catalog"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/staff"
	"github.com/a2e-automation/app/internal/staffaudit"
)

// StaffRefund is a staff member's refund of a seller's payment from the
// console: wholly, or the price of Credits of its credits, with a reason.
type StaffRefund struct {
	StaffID, AccountID, PaymentID string
	Credits                       *int64
	Reason                        string // trimmed, within bounds
	IdempotencyKey                string // the console's, payments.StaffRefundKeyPrefix included; "" for none
	RequestID                     string // the HTTP request's, for the audit line
}

// StaffRefundHandler asks the payment provider for the refund.
type StaffRefundHandler struct {
	payments StaffMoney
}

// Handle refuses a refund of the staff member's own account
// (staff.RefuseOwnAccount), then asks the provider for it with no
// transaction open (payments.RefundByStaff); the audit line
// (staffaudit.ActionRefund) is written in the transaction that records the
// provider's answer, once per refund. The ledger changes when the
// provider's charge.refunded arrives, carrying the staff member and the
// reason.
func (h StaffRefundHandler) Handle(ctx context.Context, cmd StaffRefund) (payments.StaffAction, error) {
	if err := staff.RefuseOwnAccount(cmd.StaffID, cmd.AccountID); err != nil {
		return payments.StaffAction{}, err
	}
	return h.payments.RefundByStaff(ctx, payments.StaffRefund{
		AccountID: cmd.AccountID, PaymentID: cmd.PaymentID, Credits: cmd.Credits,
		Actor: StaffActor(cmd.StaffID), Reason: cmd.Reason, IdempotencyKey: cmd.IdempotencyKey,
		Settled: func(ctx context.Context, tx pgx.Tx, done payments.StaffAction) error {
			return staffaudit.RecordTx(ctx, tx, staffaudit.Entry{Actor: cmd.StaffID, AccountID: cmd.AccountID, Action: staffaudit.ActionRefund,
				Detail:    fmt.Sprintf("%s of payment %s (refund %s): %s", catalog.Dollars(done.AmountCents), cmd.PaymentID, done.RefundID, cmd.Reason),
				RequestID: cmd.RequestID})
		},
	})
}

// StaffActor is how events and reservations name a staff member.
func StaffActor(staffID string) string { return "staff:" + staffID }
