package domain

import (
	"slices"
	"time"
)

// ErrSpendingFrozen refuses a spend while a payment dispute is open.
var ErrSpendingFrozen = Errorf(CodeForbidden,
	"Spending is paused while a payment dispute on this account is open. Contact support to resolve it.")

// CreditDebt is the credits owed: credits of refunded or lost payments that
// were already spent. The next grant repays it first.
func (a *Account) CreditDebt() int64 { return a.s.Debt }

// SpendingFrozen reports whether a payment dispute is open: no credit can
// be spent until it closes.
func (a *Account) SpendingFrozen() bool {
	for _, st := range a.s.Disputes {
		if st == disputeOpen {
			return true
		}
	}
	return false
}

// DisputeStatus is dispute disputeID's status: DisputeOpenStatus, DisputeWon
// or DisputeLost, "" for a dispute the account never saw opened.
func (a *Account) DisputeStatus(disputeID string) string { return a.s.Disputes[disputeID] }

// DisputeOpenStatus is DisputeStatus of a dispute not closed yet.
const DisputeOpenStatus = disputeOpen

// PaymentStatus is what the transactions list shows for paymentID: its
// latest status, "" for a payment the account does not know.
func (a *Account) PaymentStatus(paymentID string) string {
	if p := a.s.Paid[paymentID]; p != nil {
		return p.Status
	}
	if seen := a.s.Payments[paymentID]; len(seen) > 0 {
		return seen[len(seen)-1]
	}
	return ""
}

// RefundedCents is how much of paid payment paymentID was refunded so far.
func (a *Account) RefundedCents(paymentID string) int64 {
	if p := a.s.Paid[paymentID]; p != nil {
		return p.RefundedCents
	}
	return 0
}

// RefundPayment records that refundedCents of the paid payment paymentID
// have been refunded in total, and takes back the refunded share of the
// credits it bought: a credit pack's from its own grant first, then from
// the other credits, the shortfall recorded as debt; a subscription cycle's
// from that cycle's monthly grant only (spent monthly credits are not
// owed). A total not above the one recorded is a repeat or late delivery
// and a no-op. An unknown or unpaid payment is CodeNotFound.
func (a *Account) RefundPayment(paymentID string, refundedCents int64, now time.Time) error {
	p := a.s.Paid[paymentID]
	switch {
	case p == nil:
		return Errorf(CodeNotFound, "No paid payment %s", paymentID)
	case refundedCents <= 0:
		return Errorf(CodeInvalid, "A refund must be positive")
	case refundedCents <= p.RefundedCents:
		return nil
	}
	refundedCents = min(refundedCents, p.AmountCents)
	a.expireDue(now)
	status, share := PaymentPartiallyRefunded, creditsOfRefund(p.Credits, p.AmountCents, refundedCents)
	if refundedCents >= p.AmountCents {
		status = PaymentRefundedInFull
	}
	if p.Status == PaymentDisputed || p.Status == PaymentChargedBack {
		status = p.Status // the dispute's status stays shown
	}
	a.record(PaymentRefunded{PaymentID: paymentID, AmountCents: refundedCents, Status: status}, now)
	a.revoke(paymentID, share-p.Revoked, RevokedForRefund, now)
	return nil
}

// creditsOfRefund is the share of a payment's credits that refundedCents
// of its amountCents take back, to the nearest credit (all of them for a
// refund in full).
func creditsOfRefund(credits, amountCents, refundedCents int64) int64 {
	if refundedCents >= amountCents || amountCents <= 0 {
		return credits
	}
	return (credits*refundedCents + amountCents/2) / amountCents
}

// OpenDispute records dispute disputeID of the paid payment paymentID:
// spending is frozen until every dispute closes. A known dispute is a no-op.
func (a *Account) OpenDispute(disputeID, paymentID string, amountCents int64, now time.Time) error {
	switch {
	case disputeID == "":
		return Errorf(CodeInvalid, "A dispute id is required")
	case a.s.Disputes[disputeID] != "":
		return nil
	case a.s.Paid[paymentID] == nil:
		return Errorf(CodeNotFound, "No paid payment %s", paymentID)
	}
	a.record(DisputeOpened{DisputeID: disputeID, PaymentID: paymentID, AmountCents: amountCents}, now)
	return nil
}

// CloseDispute ends dispute disputeID (opening it first if its opening was
// never recorded). A lost dispute takes back the payment's credits not yet
// taken back, like a whole refund; a won one leaves them. Closing a closed
// dispute is a no-op.
func (a *Account) CloseDispute(disputeID, paymentID string, won bool, now time.Time) error {
	switch a.s.Disputes[disputeID] {
	case DisputeWon, DisputeLost:
		return nil
	case "":
		if err := a.OpenDispute(disputeID, paymentID, 0, now); err != nil {
			return err
		}
	default:
		paymentID = a.s.DisputedPayments[disputeID] // the one it was opened on
	}
	p := a.s.Paid[paymentID]
	if p == nil {
		return Errorf(CodeNotFound, "No paid payment %s", paymentID)
	}
	a.expireDue(now)
	if won {
		status := PaymentPaid
		switch {
		case p.RefundedCents >= p.AmountCents && p.RefundedCents > 0:
			status = PaymentRefundedInFull
		case p.RefundedCents > 0:
			status = PaymentPartiallyRefunded
		}
		a.record(DisputeClosed{DisputeID: disputeID, PaymentID: paymentID, Outcome: DisputeWon, PaymentStatus: status}, now)
		return nil
	}
	a.record(DisputeClosed{DisputeID: disputeID, PaymentID: paymentID, Outcome: DisputeLost, PaymentStatus: PaymentChargedBack}, now)
	a.revoke(paymentID, p.Credits-p.Revoked, RevokedForDisputeLost, now)
	return nil
}

// revoke takes back share credits of paid payment paymentID (see
// RefundPayment for where they come from). The balance never goes below
// zero: what cannot be taken of a credit pack becomes debt.
func (a *Account) revoke(paymentID string, share int64, reason string, now time.Time) {
	p := a.s.Paid[paymentID]
	if share <= 0 || p == nil {
		return
	}
	live := a.s.live(now)
	// The payment's own grant first, then the others in burn order.
	slices.SortStableFunc(live, func(x, y Grant) int {
		switch {
		case x.ID == p.GrantID:
			return -1
		case y.ID == p.GrantID:
			return 1
		}
		return 0
	})
	var draws []Draw
	left := share
	for _, g := range live {
		if left == 0 {
			break
		}
		if p.Kind == PaymentKindSubscription && g.ID != p.GrantID {
			break // a cycle's refund takes only that cycle's credits
		}
		n := min(left, g.Remaining)
		draws = append(draws, Draw{GrantID: g.ID, Amount: n})
		left -= n
	}
	e := CreditsRevoked{PaymentID: paymentID, Share: share, Amount: share - left, Reason: reason, Draws: draws}
	if p.Kind != PaymentKindSubscription {
		e.Debt = left
	}
	a.record(e, now)
}

// repayDebt takes what is owed from the new grant grantID of amount credits.
func (a *Account) repayDebt(grantID string, amount int64, now time.Time) {
	if a.s.Debt <= 0 {
		return
	}
	n := min(a.s.Debt, amount)
	a.record(DebtRepaid{Amount: n, Draws: []Draw{{GrantID: grantID, Amount: n}}}, now)
}
