package command

import (
	"context"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/payments"
)

// StaffRefund is a staff member's refund of a seller's payment from the
// console: wholly, or the price of Credits of its credits, with a reason.
type StaffRefund struct {
	StaffID, AccountID, PaymentID string
	Credits                       *int64
	Reason                        string // trimmed, within bounds
	IdempotencyKey                string // the console's; "" for none
}

// ErrStaffSelfAction refuses a staff member a money action on their own
// account: another staff member must do it.
var ErrStaffSelfAction = domain.Errorf(domain.CodeForbidden,
	"Staff cannot refund, cancel or adjust their own account. Ask another staff member to do it.")

// StaffRefundHandler asks the payment provider for the refund.
type StaffRefundHandler struct {
	payments *payments.Service
}

// Handle refuses a refund of the staff member's own account, then asks the
// provider for it with no transaction open (payments.RefundByStaff); the
// ledger changes when the provider's charge.refunded arrives, carrying the
// staff member and the reason.
func (h StaffRefundHandler) Handle(ctx context.Context, cmd StaffRefund) (payments.StaffAction, error) {
	if cmd.StaffID == cmd.AccountID {
		return payments.StaffAction{}, ErrStaffSelfAction
	}
	out, err := h.payments.RefundByStaff(ctx, payments.StaffRefund{
		AccountID: cmd.AccountID, PaymentID: cmd.PaymentID, Credits: cmd.Credits,
		Actor: StaffActor(cmd.StaffID), Reason: cmd.Reason, IdempotencyKey: cmd.IdempotencyKey,
	})
	if err != nil {
		return payments.StaffAction{}, err
	}
	// audit: staff cmd.StaffID refunded out.AmountCents of payment cmd.PaymentID of account cmd.AccountID (reason cmd.Reason, refund out.RefundID)
	return out, nil
}

// StaffActor is how events and reservations name a staff member.
func StaffActor(staffID string) string { return "staff:" + staffID }
