package payments_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/testing/stripemock"
)

// Auto-recharge's Stripe calls against stripe-mock: the SetupIntent for
// off-session use, the off-session PaymentIntent confirmed at once with the
// recharge's idempotency key and metadata, the card's details, its
// detachment.
func TestStripeRechargeCallsAgainstStripeMock(t *testing.T) {
	p, rec := newStripe(t, stripemock.URL(t))
	ctx := context.Background()
	const account = "0b8a3c55-5a3e-4d7c-9a51-2f0f4f1e7a10"

	si, err := p.CreateSetupIntent(ctx, payments.SetupIntentRequest{AccountID: account, CustomerID: "cus_123", IdempotencyKey: "setup:k1"})
	if err != nil || !strings.HasPrefix(si.SetupIntentID, "seti_") || si.ClientSecret == "" {
		t.Fatalf("setup intent = %+v, %v", si, err)
	}
	wantForm(t, rec.Last(t), "POST", "/v1/setup_intents", map[string]string{
		"customer": "cus_123", "usage": "off_session", "payment_method_types[0]": "card", "metadata[account_id]": account,
	})
	if key := rec.Last(t).Header.Get("Idempotency-Key"); key != "setup:k1" {
		t.Errorf("setup Idempotency-Key = %q", key)
	}

	key := payments.RechargeKey(account, "recharge-1")
	out, err := p.ChargeOffSession(ctx, payments.OffSessionCharge{AccountID: account, CustomerID: "cus_123", PaymentMethodID: "pm_123",
		RechargeID: "recharge-1", Credits: 500, AmountCents: 3999, IdempotencyKey: key})
	if err != nil || !strings.HasPrefix(out.PaymentIntentID, "pi_") {
		t.Fatalf("charge = %+v, %v", out, err)
	}
	wantForm(t, rec.Last(t), "POST", "/v1/payment_intents", map[string]string{
		"amount": "3999", "currency": "usd", "customer": "cus_123", "payment_method": "pm_123",
		"off_session": "true", "confirm": "true", "description": "Auto-recharge: 500 credits",
		"metadata[account_id]": account, "metadata[kind]": "credits", "metadata[credits]": "500", "metadata[recharge]": "recharge-1",
	})
	if got := rec.Last(t).Header.Get("Idempotency-Key"); got != key || !strings.Contains(key, account) || !strings.HasSuffix(key, "recharge-1") {
		t.Errorf("charge Idempotency-Key = %q, want %q (the account and the crossing)", got, key)
	}

	card, err := p.PaymentMethodCard(ctx, "pm_123")
	if err != nil || card.Brand == "" || len(card.Last4) != 4 {
		t.Fatalf("card = %+v, %v", card, err)
	}
	if err := p.DetachPaymentMethod(ctx, "pm_123"); err != nil {
		t.Fatal(err)
	}
	wantForm(t, rec.Last(t), "POST", "/v1/payment_methods/pm_123/detach", nil)
}

// Stripe's card errors on an off-session confirmation: a decline, and a
// demand for authentication (3-D Secure), each carrying its PaymentIntent.
func TestStripeRechargeCardErrors(t *testing.T) {
	for code, want := range map[string]string{"card_declined": payments.RechargeDeclined, "authentication_required": payments.RechargeNeedsAction} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusPaymentRequired)
			_, _ = io.WriteString(w, `{"error":{"type":"card_error","code":"`+code+`","message":"Your card was declined.",
				"payment_intent":{"id":"pi_err","object":"payment_intent","status":"requires_payment_method"}}}`)
		}))
		p, _ := newStripe(t, srv.URL)
		out, err := p.ChargeOffSession(context.Background(), payments.OffSessionCharge{AccountID: "a", CustomerID: "c", PaymentMethodID: "pm",
			RechargeID: "recharge-1", Credits: 100, AmountCents: 999, IdempotencyKey: "k"})
		srv.Close()
		if err != nil || out.Status != want || out.PaymentIntentID != "pi_err" {
			t.Fatalf("%s: %+v, %v; want %s of pi_err", code, out, err, want)
		}
	}
}
