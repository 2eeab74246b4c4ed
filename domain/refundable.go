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

// RefundableCents is what can still be refunded.
func (p PaidPayment) RefundableCents() int64 { return max(p.AmountCents-p.RefundedCents, 0) }

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
