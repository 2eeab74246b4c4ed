package payments_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/testing/stripemock"
)

func newStripe(t *testing.T, base string) (*payments.Stripe, *stripemock.Recorder) {
	rec := &stripemock.Recorder{}
	return payments.NewStripe(payments.StripeConfig{
		SecretKey: "sk_test_123", PriceID: "price_monthly", APIBase: base, HTTPClient: &http.Client{Transport: rec},
	}), rec
}

// wantForm checks the fields of a request's form.
func wantForm(t *testing.T, s stripemock.Sent, method, path string, fields map[string]string) {
	t.Helper()
	if s.Method != method || s.Path != path {
		t.Errorf("request = %s %s, want %s %s", s.Method, s.Path, method, path)
	}
	for k, v := range fields {
		if got := s.Form.Get(k); got != v {
			t.Errorf("%s %s: %s = %q, want %q", method, path, k, got, v)
		}
	}
	if auth := s.Header.Get("Authorization"); auth != "Bearer sk_test_123" {
		t.Errorf("Authorization = %q", auth)
	}
}

func TestStripeProviderAgainstStripeMock(t *testing.T) {
	p, rec := newStripe(t, stripemock.URL(t))
	ctx := context.Background()
	const account = "0b8a3c55-5a3e-4d7c-9a51-2f0f4f1e7a10"

	cust, err := p.CreateCustomer(ctx, payments.CustomerRequest{AccountID: account, Email: "seller@example.com"})
	if err != nil || !strings.HasPrefix(cust, "cus_") {
		t.Fatalf("customer = %q, %v", cust, err)
	}
	s := rec.Last(t)
	wantForm(t, s, "POST", "/v1/customers", map[string]string{"email": "seller@example.com", "metadata[account_id]": account})
	if key := s.Header.Get("Idempotency-Key"); key != "customer:"+account {
		t.Errorf("Idempotency-Key = %q", key)
	}

	sub, err := p.CreateSubscription(ctx, payments.SubscriptionRequest{AccountID: account, CustomerID: "cus_123", IdempotencyKey: "subscription:k1"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sub.SubscriptionID, "sub_") || !strings.HasPrefix(sub.InvoiceID, "in_") ||
		!strings.HasPrefix(sub.PaymentIntentID, "pi_") || !strings.Contains(sub.ClientSecret, "_secret_") {
		t.Fatalf("subscription checkout = %+v", sub)
	}
	s = rec.Last(t)
	wantForm(t, s, "POST", "/v1/subscriptions", map[string]string{
		"customer": "cus_123", "items[0][price]": "price_monthly", "payment_behavior": "default_incomplete",
		"payment_settings[save_default_payment_method]": "on_subscription", "metadata[account_id]": account,
	})
	if key := s.Header.Get("Idempotency-Key"); key != "subscription:k1" {
		t.Errorf("subscription Idempotency-Key = %q", key)
	}
	if e0, e1 := s.Form.Get("expand[0]"), s.Form.Get("expand[1]"); e0 != "latest_invoice.confirmation_secret" ||
		e1 != "latest_invoice.payments.data.payment.payment_intent" {
		t.Errorf("expand = %q, %q", e0, e1)
	}

	pi, err := p.CreatePaymentIntent(ctx, payments.PaymentIntentRequest{AccountID: account, CustomerID: "cus_123", Credits: 500, AmountCents: 3999, IdempotencyKey: "credits:k2"})
	if err != nil || !strings.HasPrefix(pi.PaymentIntentID, "pi_") || !strings.Contains(pi.ClientSecret, "_secret_") {
		t.Fatalf("payment intent = %+v, %v", pi, err)
	}
	if key := rec.Last(t).Header.Get("Idempotency-Key"); key != "credits:k2" {
		t.Errorf("payment intent Idempotency-Key = %q", key)
	}
	wantForm(t, rec.Last(t), "POST", "/v1/payment_intents", map[string]string{
		"amount": "3999", "currency": "usd", "customer": "cus_123", "description": "500 credits",
		"automatic_payment_methods[enabled]": "true",
		"metadata[account_id]":               account, "metadata[kind]": "credits", "metadata[credits]": "500",
	})

	if err := p.CancelAtPeriodEnd(ctx, "sub_123", "cancel:test"); err != nil {
		t.Fatal(err)
	}
	wantForm(t, rec.Last(t), "POST", "/v1/subscriptions/sub_123", map[string]string{"cancel_at_period_end": "true"})
	if key := rec.Last(t).Header.Get("Idempotency-Key"); key != "cancel:test" {
		t.Errorf("cancel Idempotency-Key = %q", key)
	}
}

func TestStripeAmountTooSmallIsTheUsersToFix(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"error":{"type":"invalid_request_error","code":"amount_too_small","param":"amount",
			"message":"Amount must be at least $0.50 usd"}}`)
	}))
	defer srv.Close()
	p, _ := newStripe(t, srv.URL)
	_, err := p.CreatePaymentIntent(context.Background(), payments.PaymentIntentRequest{AccountID: "a", CustomerID: "c", Credits: 1, AmountCents: 10})
	if domain.ErrorCode(err) != domain.CodeInvalid || domain.ErrorMessage(err) != "Amount must be at least $0.50 usd" {
		t.Fatalf("err = %v", err)
	}
}

// TestStripeStaffRefund: the console's refund is a POST /v1/refunds of the
// PaymentIntent with the amount and the reservation's idempotency key; a
// renewal's PaymentIntent is found through its invoice's payments; Stripe's
// refusals a staff member can act on are conflicts with Stripe's words.
func TestStripeStaffRefund(t *testing.T) {
	p, rec := newStripe(t, stripemock.URL(t))
	ctx := context.Background()
	id, err := p.Refund(ctx, payments.RefundRequest{AccountID: "acc", PaymentIntentID: "pi_123", AmountCents: 199, IdempotencyKey: "staff_refund:k1"})
	if err != nil || !strings.HasPrefix(id, "re_") {
		t.Fatalf("refund = %q, %v", id, err)
	}
	wantForm(t, rec.Last(t), "POST", "/v1/refunds", map[string]string{
		"payment_intent": "pi_123", "amount": "199", "reason": "requested_by_customer", "metadata[account_id]": "acc",
	})
	if key := rec.Last(t).Header.Get("Idempotency-Key"); key != "staff_refund:k1" {
		t.Errorf("refund Idempotency-Key = %q", key)
	}
	if _, err := p.PaymentIntentOfInvoice(ctx, "in_123"); err != nil {
		t.Fatal(err)
	}
	s := rec.Last(t)
	if s.Method != "GET" || s.Path != "/v1/invoice_payments" {
		t.Errorf("invoice payments request = %s %s", s.Method, s.Path)
	}

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"error":{"type":"invalid_request_error","code":"charge_already_refunded",
			"message":"Charge ch_1 has already been refunded."}}`)
	}))
	defer srv.Close()
	refusing, _ := newStripe(t, srv.URL)
	_, err = refusing.Refund(ctx, payments.RefundRequest{AccountID: "a", PaymentIntentID: "pi_1", AmountCents: 10, IdempotencyKey: "k"})
	if domain.ErrorCode(err) != domain.CodeConflict || !strings.Contains(domain.ErrorMessage(err), "already been refunded") {
		t.Fatalf("err = %v", err)
	}
}

func TestStripeLifecycleCallsAgainstStripeMock(t *testing.T) {
	p, rec := newStripe(t, stripemock.URL(t))
	ctx := context.Background()
	if err := p.Resume(ctx, "sub_123", "resume:k"); err != nil {
		t.Fatal(err)
	}
	wantForm(t, rec.Last(t), "POST", "/v1/subscriptions/sub_123", map[string]string{"cancel_at_period_end": "false"})
	if err := p.CancelNow(ctx, "sub_123", "cancel_now:k"); err != nil {
		t.Fatal(err)
	}
	wantForm(t, rec.Last(t), "DELETE", "/v1/subscriptions/sub_123", nil)
	url, err := p.PortalURL(ctx, payments.PortalRequest{CustomerID: "cus_123", ReturnURL: "https://app.example.com/subscription"})
	if err != nil || !strings.HasPrefix(url, "https://") {
		t.Fatalf("portal = %q, %v", url, err)
	}
	wantForm(t, rec.Last(t), "POST", "/v1/billing_portal/sessions", map[string]string{
		"customer": "cus_123", "return_url": "https://app.example.com/subscription"})
	if _, err := p.InvoiceOfPaymentIntent(ctx, "pi_123"); err != nil {
		t.Fatal(err)
	}
	if s := rec.Last(t); s.Method != "GET" || s.Path != "/v1/invoice_payments" {
		t.Fatalf("invoice payments request = %s %s", s.Method, s.Path)
	}
}

// The provider asks Stripe for the charge, within its time budget.
func TestStripeChargeOwnerAgainstStripeMock(t *testing.T) {
	p, rec := newStripe(t, stripemock.URL(t))
	if _, err := p.ChargeOwner(context.Background(), "ch_123"); err != nil {
		t.Fatal(err)
	}
	if s := rec.Last(t); s.Method != "GET" || s.Path != "/v1/charges/ch_123" {
		t.Fatalf("charge request = %s %s", s.Method, s.Path)
	}
}
