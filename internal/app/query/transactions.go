package query

import (
	"context"

	"github.com/a2e-automation/app/projections"
)

// TransactionsReader lists an account's payments (projections.Reader).
type TransactionsReader interface {
	Transactions(ctx context.Context, accountID string) ([]projections.Transaction, error)
}

// TransactionsHandler reads the transactions page.
type TransactionsHandler struct{ transactions TransactionsReader }

// Handle is accountID's payments, newest first, each marked when it has a
// receipt (HasReceipt).
func (h TransactionsHandler) Handle(ctx context.Context, accountID string) ([]projections.Transaction, error) {
	list, err := h.transactions.Transactions(ctx, accountID)
	for i, t := range list {
		list[i].Receipt = HasReceipt(t.Status, t.InvoiceURL)
	}
	return list, err
}
