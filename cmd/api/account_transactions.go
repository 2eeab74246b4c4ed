package main

import (
	"net/http"
	"net/url"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/a2e-automation/app/projections"
)

type transactionResponse struct {
	ID              string `json:"id"`
	TransactionDate string `json:"transactionDate"` // RFC 3339
	Description     string `json:"description"`
	Amount          int64  `json:"amount"` // cents
	Status          string `json:"status"`
	InvoiceURL      string `json:"invoiceUrl,omitempty"`
	ReceiptURL      string `json:"receiptUrl,omitempty"` // our receipt page, for a paid payment without an invoice
}

// receiptURL is the absolute address of payment id's receipt page.
func receiptURL(d Deps, id string) string {
	return d.Config.BaseURL + "/receipts/" + url.PathEscape(id)
}

func transactionOf(d Deps, t projections.Transaction) transactionResponse {
	res := transactionResponse{
		ID: t.ID, TransactionDate: t.Date.UTC().Format(time.RFC3339), Description: t.Description,
		Amount: t.AmountCents, Status: t.Status, InvoiceURL: t.InvoiceURL,
	}
	if t.Receipt {
		res.ReceiptURL = receiptURL(d, t.ID)
	}
	return res
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
			res = append(res, transactionOf(d, t))
		}
		encode(w, http.StatusOK, res)
	}
}

type cardResponse struct {
	Brand string `json:"brand"`
	Last4 string `json:"last4"`
}

// handleTransaction answers GET /api/transactions/{id}: one payment of the
// signed-in account with what its receipt shows. Another account's payment
// and an unknown id are both 404 not_found.
func handleTransaction(d Deps) http.HandlerFunc {
	type response struct {
		transactionResponse
		Currency       string        `json:"currency"`
		Credits        int64         `json:"credits"`        // bought; 0 when the payment names none
		RefundedAmount int64         `json:"refundedAmount"` // cents refunded so far
		PaymentMethod  *cardResponse `json:"paymentMethod"`  // null when the ledger does not know the card
		Email          string        `json:"email"`          // the seller's, whom it was charged to
		ProductName    string        `json:"productName"`
	}
	return func(w http.ResponseWriter, r *http.Request) {
		p, err := d.App.Queries.Receipt.Handle(r.Context(), currentSession(r.Context()).AccountID, chi.URLParam(r, "id"))
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		res := response{transactionResponse: transactionOf(d, p.Transaction), Currency: "USD", Credits: p.Credits,
			RefundedAmount: p.RefundedCents, Email: p.Email, ProductName: d.Config.ProductName}
		if p.Card != nil {
			res.PaymentMethod = &cardResponse{Brand: p.Card.Brand, Last4: p.Card.Last4}
		}
		encode(w, http.StatusOK, res)
	}
}
