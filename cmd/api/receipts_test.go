package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/internal/config"
)

// receipt is GET /api/transactions/{id}'s answer.
type receipt struct {
	ID, TransactionDate, Description, Status, Currency, Email, ProductName string
	InvoiceURL, ReceiptURL                                                 string
	Amount, Credits, RefundedAmount                                        int64
	PaymentMethod                                                          *struct{ Brand, Last4 string }
}

// TestCreditPurchaseReceipt buys a pack with the simulated provider and
// reads its receipt everywhere it is offered: the transactions list's
// receiptUrl, GET /api/transactions/{id} (only to its own seller) and the
// CSV's invoiceUrl column; a partial refund then shows on the receipt. A
// failed payment has no receipt.
func TestCreditPurchaseReceipt(t *testing.T) {
	e := newTestEnv(t, func(c *config.Config) { c.BaseURL, c.ProductName = "https://app.example", "Lister" })
	s := e.seedVerified("receipt@example.com")
	other := e.seedVerified("receipt-other@example.com")
	secret := e.checkout(s, "/api/credits/purchase", map[string]int{"creditAmount": 500})
	if r, _ := e.confirm(s, secret, "succeeded"); r.status != 200 {
		t.Fatalf("confirm = %d %s", r.status, r.body)
	}
	if r, _ := e.confirm(s, e.checkout(s, "/api/credits/purchase", map[string]int{"creditAmount": 100}), "failed"); r.status != 200 {
		t.Fatalf("failed payment = %d %s", r.status, r.body)
	}
	e.settle(s.ID)

	var list []struct{ ID, Status, InvoiceURL, ReceiptURL string }
	r := e.do(request{method: "GET", path: "/api/transactions", cookie: s.Cookie})
	r.json(t, &list)
	if r.status != 200 || len(list) != 2 {
		t.Fatalf("transactions = %d %s", r.status, r.body)
	}
	var paid, failed string
	for _, tx := range list {
		switch tx.Status {
		case "paid":
			paid = tx.ID
			if tx.ReceiptURL != "https://app.example/receipts/"+tx.ID || tx.InvoiceURL != "" {
				t.Errorf("paid pack's links = %+v, want the receipt alone", tx)
			}
		case "failed":
			failed = tx.ID
			if tx.ReceiptURL != "" || tx.InvoiceURL != "" {
				t.Errorf("failed payment's links = %+v, want none", tx)
			}
		}
	}
	if paid == "" || failed == "" {
		t.Fatalf("transactions = %s", r.body)
	}

	get := func(who seeded, id string) (response, receipt) {
		var got receipt
		r := e.do(request{method: "GET", path: "/api/transactions/" + id, cookie: who.Cookie})
		if r.status == 200 {
			r.json(t, &got)
		}
		return r, got
	}
	r, got := get(s, paid)
	date, err := time.Parse(time.RFC3339, got.TransactionDate)
	if r.status != 200 || err != nil || time.Since(date) > time.Hour || got.ID != paid || got.Description != "500 credits" ||
		got.Amount != 3999 || got.Credits != 500 || got.Currency != "USD" || got.Status != "paid" || got.RefundedAmount != 0 ||
		got.Email != "receipt@example.com" || got.ProductName != "Lister" || got.ReceiptURL != "https://app.example/receipts/"+paid ||
		got.InvoiceURL != "" || got.PaymentMethod != nil || !strings.Contains(string(r.body), `"paymentMethod":null`) {
		t.Fatalf("receipt = %d %s", r.status, r.body)
	}
	if r, got := get(s, failed); r.status != 200 || got.Status != "failed" || got.ReceiptURL != "" {
		t.Errorf("failed payment = %d %s, want it without a receipt", r.status, r.body)
	}
	for who, id := range map[string]string{"another seller": paid, "an unknown id": "pi_unknown"} {
		caller := s
		if who == "another seller" {
			caller = other
		}
		if r, _ := get(caller, id); r.status != http.StatusNotFound || r.errorCode(t) != "not_found" {
			t.Errorf("%s = %d %s, want 404 not_found", who, r.status, r.body)
		}
	}
	if r := e.do(request{method: "GET", path: "/api/transactions/" + paid}); r.status != http.StatusUnauthorized {
		t.Errorf("signed out = %d", r.status)
	}

	today := time.Now().UTC().Format(time.DateOnly)
	rows := readCSV(t, e.do(request{method: "GET", path: "/api/transactions.csv?from=" + today + "&to=" + today, cookie: s.Cookie}),
		"transactions-"+today+"-to-"+today+".csv")
	links := map[string]string{}
	for _, row := range rows[1:] {
		links[row[0]] = row[6]
	}
	if len(links) != 2 || links[paid] != "https://app.example/receipts/"+paid || links[failed] != "" {
		t.Fatalf("CSV = %q", rows)
	}

	// A partial refund (100 of the 500 credits) shows on the receipt.
	if r := e.post(s, "/api/dev/payments/refund", map[string]any{"clientSecret": secret, "credits": 100}); r.status != 200 {
		t.Fatalf("refund = %d %s", r.status, r.body)
	}
	e.settle(s.ID)
	if r, got := get(s, paid); r.status != 200 || got.Status != "partially_refunded" || got.RefundedAmount <= 0 ||
		got.RefundedAmount >= got.Amount || got.Credits != 500 || got.ReceiptURL == "" {
		t.Fatalf("after a partial refund = %d %s", r.status, r.body)
	}
}
