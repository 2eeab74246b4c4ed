package command

import (
	"context"
	"fmt"

	"github.com/a2e-automation/app/domain"
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
	simulated
	payments StaffMoney
}

// Handle refuses a refund of the staff member's own account
// (staff.RefuseOwnAccount), then asks the provider for it with no
// transaction open (payments.RefundByStaff), priced by refundAmount while
// the refund's claim is held; the audit line (staffaudit.ActionRefund) is
// written in the transaction that records the provider's answer, once per
// refund. The ledger changes when the provider reports the refunded
// charge, carrying the staff member and the reason: by webhook, or at
// once (the simulated provider), on the same path.
func (h StaffRefundHandler) Handle(ctx context.Context, cmd StaffRefund) (payments.StaffAction, error) {
	if err := staff.RefuseOwnAccount(cmd.StaffID, cmd.AccountID); err != nil {
		return payments.StaffAction{}, err
	}
	return h.payments.RefundByStaff(ctx, payments.StaffRefund{
		AccountID: cmd.AccountID, PaymentID: cmd.PaymentID, Credits: cmd.Credits,
		Actor: StaffActor(cmd.StaffID), Reason: cmd.Reason, IdempotencyKey: cmd.IdempotencyKey,
		Amount: func(p domain.PaidPayment, pending int64) (int64, error) { return refundAmount(p, cmd.Credits, pending) },
		Audit: func(done payments.StaffAction) staffaudit.Entry {
			return staffaudit.Entry{Actor: cmd.StaffID, AccountID: cmd.AccountID, Action: staffaudit.ActionRefund,
				Detail:    fmt.Sprintf("%s of payment %s (refund %s): %s", catalog.Dollars(done.AmountCents), cmd.PaymentID, done.RefundID, cmd.Reason),
				RequestID: cmd.RequestID}
		},
		Report: h.reportNow,
	})
}

// StaffActor is how events and reservations name a staff member.
func StaffActor(staffID string) string { return "staff:" + staffID }

// refundAmount is the amount of a refund of p: what is left of it, or the
// price share of credits of its credits; pending is what other refunds
// asked of the provider and not yet in the ledger will take.
func refundAmount(p domain.PaidPayment, credits *int64, pending int64) (int64, error) {
	if p.Disputed() {
		return 0, domain.Errorf(domain.CodeConflict, "This payment is disputed: the dispute decides its money, so it cannot be refunded now")
	}
	left := p.RefundableCents() - pending
	if left <= 0 && pending > 0 {
		return 0, domain.Errorf(domain.CodeConflict, "The rest of this payment is already being refunded (%s on its way): nothing is left to refund",
			catalog.Dollars(pending))
	}
	if left <= 0 {
		return 0, domain.Errorf(domain.CodeConflict, "This payment is already refunded in full")
	}
	if credits == nil {
		return left, nil
	}
	if *credits < 1 || *credits > p.Credits {
		return 0, domain.Errorf(domain.CodeInvalid, "Credits to refund must be between 1 and %d", p.Credits)
	}
	amount := p.AmountCents * *credits / p.Credits
	if amount < 1 {
		return 0, domain.Errorf(domain.CodeInvalid, "%d credits of this payment are worth less than a cent: refund more", *credits)
	}
	if amount > left {
		return 0, domain.Errorf(domain.CodeConflict, "Only %s of this payment can still be refunded (%s of %s refunded already%s); %d credits are worth %s",
			catalog.Dollars(left), catalog.Dollars(p.RefundedCents), catalog.Dollars(p.AmountCents), pendingNote(pending), *credits, catalog.Dollars(amount))
	}
	return amount, nil
}

func pendingNote(pending int64) string {
	if pending == 0 {
		return ""
	}
	return ", " + catalog.Dollars(pending) + " on its way"
}
