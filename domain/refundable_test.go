package domain

import "testing"

// What a console refund may still take: the amount less what is refunded
// and the credits that amount takes back, nothing of a payment the account
// never paid, and nothing while a dispute decides the money.
func TestPaidPaymentRefundable(t *testing.T) {
	for _, c := range []struct {
		name               string
		events             []Event
		payment            string
		ok, disputed       bool
		refundable, bought int64
		credits            int64 // refundable credits
	}{
		{"paid", []Event{pack, packPaid}, "pi_1", true, false, 999, 100, 100},
		{"partly refunded", []Event{pack, packPaid, PaymentRefunded{PaymentID: "pi_1", AmountCents: 500, Status: PaymentPartiallyRefunded}}, "pi_1", true, false, 499, 100, 50},
		{"refunded in full", []Event{pack, packPaid, PaymentRefunded{PaymentID: "pi_1", AmountCents: 999, Status: PaymentRefundedInFull}}, "pi_1", true, false, 0, 100, 0},
		{"disputed", []Event{pack, packPaid, DisputeOpened{DisputeID: "dp_1", PaymentID: "pi_1", AmountCents: 999}}, "pi_1", true, true, 0, 100, 0},
		{"unknown", []Event{pack, packPaid}, "pi_2", false, false, 0, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, ok := given(t, c.events...).Paid(c.payment)
			if ok != c.ok || p.Disputed() != c.disputed || p.RefundableCents() != c.refundable || p.Credits != c.bought ||
				p.RefundableCredits() != c.credits {
				t.Fatalf("Paid(%s) = %+v, %v; refundable %d, disputed %v", c.payment, p, ok, p.RefundableCents(), p.Disputed())
			}
		})
	}
}
