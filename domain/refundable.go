package domain

// PaidPayment is what a paid payment was and how much of it is refunded:
// what a refund from the staff console checks before it asks the provider.
type PaidPayment struct {
	Kind          string
	Status        string
	AmountCents   int64
	Credits       int64
	RefundedCents int64
}

// RefundableCents is what can still be refunded: the amount not refunded
// yet of a paid, partly refunded or needs-review payment; nothing of one
// refunded in full, disputed or charged back.
func (p PaidPayment) RefundableCents() int64 {
	switch p.Status {
	case PaymentPaid, PaymentPartiallyRefunded, PaymentNeedsReview:
		return max(p.AmountCents-p.RefundedCents, 0)
	}
	return 0
}

// RefundableCredits is what a refund of RefundableCents takes back: the
// credits not yet taken back by the refunds so far (the domain's rounding,
// RefundPayment's).
func (p PaidPayment) RefundableCredits() int64 {
	if p.RefundableCents() == 0 {
		return 0
	}
	return p.Credits - creditsOfRefund(p.Credits, p.AmountCents, p.RefundedCents)
}

// Disputed reports whether a dispute decides the payment's money: the
// provider refuses refunds of a disputed charge.
func (p PaidPayment) Disputed() bool {
	return p.Status == PaymentDisputed || p.Status == PaymentChargedBack
}

// Paid returns paid payment paymentID; ok is false for a payment the
// account does not know as paid.
func (a *Account) Paid(paymentID string) (p PaidPayment, ok bool) {
	pp := a.s.Paid[paymentID]
	if pp == nil {
		return PaidPayment{}, false
	}
	return PaidPayment{Kind: pp.Kind, Status: pp.Status, AmountCents: pp.AmountCents, Credits: pp.Credits, RefundedCents: pp.RefundedCents}, true
}
