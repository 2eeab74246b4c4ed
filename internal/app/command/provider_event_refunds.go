package command

// What the provider's notifications of refunds and disputes mean for the
// account (provider_event.go applies them).

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/payments"
)

// onChargeRefunded handles a refunded charge: its refunded amount is the
// charge's refunded total, so a redelivery or a late, older event changes
// nothing, and each partial refund takes back only its own share of the
// credits.
func (n notifications) onChargeRefunded(ctx context.Context, ev payments.Notification) (change, error) {
	ch := ev.Charge
	if ch.AmountRefunded <= 0 {
		return ignore("nothing refunded"), nil
	}
	ref, ok, err := n.payments.PaymentOf(ctx, ch.PaymentIntentID, ch.Owner)
	if err != nil || !ok {
		return ignore("not a payment of this product"), err
	}
	staff, err := n.refundAttribution(ctx, ref, ch.AmountRefunded)
	if err != nil {
		return change{}, err
	}
	return change{accountID: ref.AccountID, retryUnknown: true, staff: staff, apply: func(a *domain.Account, at time.Time) error {
		return a.RefundPayment(ref.PaymentID, ch.AmountRefunded, at)
	}}, nil
}

// refundAttribution finds the staff refunds of ref that a new refunded
// total of total covers: those asked from the console, in order, whose
// amounts fit between what the ledger has refunded so far and total.
func (n notifications) refundAttribution(ctx context.Context, ref payments.PaymentRef, total int64) (*payments.Attribution, error) {
	a, err := n.accounts.FromSnapshot(ctx, ref.AccountID)
	if accounts.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	p, _ := a.Paid(ref.PaymentID)
	if total <= p.RefundedCents {
		return nil, nil // a redelivery or a late event: it changes nothing
	}
	return n.payments.StaffRefunds(ctx, ref.AccountID, ref.PaymentID, p.RefundedCents, total)
}

// onRefundCreated acknowledges a created refund: the refund is applied from
// the refunded charge, which carries the charge's refunded total, so that
// two events about one refund never take its credits twice.
func (notifications) onRefundCreated(context.Context, payments.Notification) (change, error) {
	return ignore("refunds are applied from charge.refunded"), nil
}

// onDispute handles a dispute opened (spending freezes) and closed (won or
// warning_closed: unfreeze; lost: the credits go too).
func (n notifications) onDispute(ctx context.Context, ev payments.Notification) (change, error) {
	dp := ev.Dispute
	ref, ok, err := n.payments.DisputedPayment(ctx, dp)
	if err != nil || !ok {
		return ignore("not a payment of this product"), err
	}
	c := change{accountID: ref.AccountID, retryUnknown: true}
	if ev.Kind != payments.DisputeClosed {
		c.apply = func(a *domain.Account, at time.Time) error {
			return a.OpenDispute(dp.ID, ref.PaymentID, dp.AmountCents, at)
		}
		return c, nil
	}
	c.apply = func(a *domain.Account, at time.Time) error { return a.CloseDispute(dp.ID, ref.PaymentID, !dp.Lost, at) }
	return c, nil
}
