package query

import (
	"context"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/projections"
)

// ReceiptReader reads one payment of an account with what its receipt
// shows (projections.Reader).
type ReceiptReader interface {
	Payment(ctx context.Context, accountID, paymentID string) (projections.Payment, bool, error)
}

// HasReceipt reports whether a payment with status and the provider's
// invoiceURL ("" for none) has a receipt of ours (/receipts/:id): every
// payment that was paid (refunded or disputed since included) and has no
// provider invoice, that is a credit pack, a custom amount or an
// auto-recharge. A subscription's payment links its hosted invoice; a
// failed or pending one has neither.
func HasReceipt(status, invoiceURL string) bool {
	if invoiceURL != "" {
		return false
	}
	switch status {
	case domain.PaymentPaid, domain.PaymentRefundedInFull, domain.PaymentPartiallyRefunded,
		domain.PaymentDisputed, domain.PaymentChargedBack:
		return true
	}
	return false
}

// ReceiptHandler reads a payment for its receipt page and the payments
// list's detail call (GET /api/transactions/{id}).
type ReceiptHandler struct{ payments ReceiptReader }

// Handle is accountID's payment paymentID. An unknown id, or another
// account's, is not found; so is neither: the caller cannot tell them apart.
func (h ReceiptHandler) Handle(ctx context.Context, accountID, paymentID string) (projections.Payment, error) {
	p, found, err := h.payments.Payment(ctx, accountID, paymentID)
	if err != nil {
		return projections.Payment{}, err
	}
	if !found {
		return projections.Payment{}, domain.Errorf(domain.CodeNotFound, "No such transaction")
	}
	p.Receipt = HasReceipt(p.Status, p.InvoiceURL)
	return p, nil
}
