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

// Handle is accountID's payments, newest first.
func (h TransactionsHandler) Handle(ctx context.Context, accountID string) ([]projections.Transaction, error) {
	return h.transactions.Transactions(ctx, accountID)
}
