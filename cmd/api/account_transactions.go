package main

import (
	"net/http"
	"time"
)

type transactionResponse struct {
	ID              string `json:"id"`
	TransactionDate string `json:"transactionDate"` // RFC 3339
	Description     string `json:"description"`
	Amount          int64  `json:"amount"` // cents
	Status          string `json:"status"`
	InvoiceURL      string `json:"invoiceUrl,omitempty"`
}

// handleTransactions answers the signed-in account's payments, newest
// first; an empty list is [], never null.
func handleTransactions(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		list, err := d.App.Queries.Transactions.Handle(r.Context(), currentSession(r.Context()).AccountID)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		res := make([]transactionResponse, 0, len(list))
		for _, t := range list {
			res = append(res, transactionResponse{
				ID: t.ID, TransactionDate: t.Date.UTC().Format(time.RFC3339), Description: t.Description,
				Amount: t.AmountCents, Status: t.Status, InvoiceURL: t.InvoiceURL,
			})
		}
		encode(w, http.StatusOK, res)
	}
}
