package main

import (
	"net/http"
	"testing"
)

// GET/PUT /api/account/auto-recharge and POST/DELETE
// /api/account/payment-method on the real router, database and simulated
// provider (issue 33 item 2): bad input is a 400 naming its field and saves
// nothing; a card saved through the simulated SetupIntent shows as
// {brand, last4}; removing it turns auto-recharge off with its reason.
func TestAccountAutoRechargeAPI(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	route := e.settingsRoute("/api/account/auto-recharge", "recharge")
	s, un, put := route.verified, route.unverified, route.put
	get := func() (b autoRechargeResponse) { route.get(&b); return b }
	if b := get(); b.Enabled || b.PaymentMethod != nil || b.DisabledReason != nil {
		t.Fatalf("new account's auto-recharge %+v", b)
	}
	route.expectRefused([]badSetting{
		{s.Cookie, `{"enabled": false, "thresholdCredits": -1, "packCredits": 100, "monthlyLimitCents": 5000}`, "thresholdCredits"},
		{s.Cookie, `{"enabled": false, "thresholdCredits": 10000001, "packCredits": 100, "monthlyLimitCents": 5000}`, "thresholdCredits"},
		{s.Cookie, `{"enabled": false, "thresholdCredits": 10, "packCredits": 123, "monthlyLimitCents": 5000}`, "packCredits"},
		{s.Cookie, `{"enabled": false, "thresholdCredits": 10, "packCredits": 100, "monthlyLimitCents": 500}`, "monthlyLimitCents"},
		{s.Cookie, `{"enabled": false, "thresholdCredits": 10, "packCredits": 100, "monthlyLimitCents": 10000001}`, "monthlyLimitCents"},
		{s.Cookie, `{"enabled": false, "thresholdCredits": 1.5, "packCredits": 100, "monthlyLimitCents": 5000}`, "thresholdCredits"},
		{s.Cookie, `{"enabled": true, "thresholdCredits": 10, "packCredits": 100, "monthlyLimitCents": 5000}`, "paymentMethod"},
		{un.Cookie, `{"enabled": false, "thresholdCredits": 10, "packCredits": 100, "monthlyLimitCents": 5000}`, "enabled"},
	}, "AutoRechargeSet")

	// Save a simulated card, as the labelled form does.
	r := e.do(request{method: "POST", path: "/api/account/payment-method", cookie: s.Cookie})
	var co struct {
		ClientSecret string `json:"clientSecret"`
	}
	r.json(t, &co)
	if r.status != http.StatusOK || co.ClientSecret == "" {
		t.Fatalf("POST payment-method = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "POST", path: "/api/dev/payments/confirm", cookie: s.Cookie,
		body: map[string]any{"clientSecret": co.ClientSecret, "outcome": "succeeded"}}); r.status != http.StatusOK {
		t.Fatalf("confirm setup = %d %s", r.status, r.body)
	}
	r = put(s.Cookie, map[string]any{"enabled": true, "thresholdCredits": 50, "packCredits": 500, "monthlyLimitCents": 8000})
	if r.status != http.StatusOK {
		t.Fatalf("PUT = %d %s", r.status, r.body)
	}
	b := get()
	if !b.Enabled || b.ThresholdCredits != 50 || b.PackCredits != 500 || b.PackAmountCents != 3999 || b.MonthlyLimitCents != 8000 ||
		b.PaymentMethod == nil || b.PaymentMethod.Brand != "visa" || b.PaymentMethod.Last4 != "4242" || b.DisabledReason != nil {
		t.Fatalf("read back %+v", b)
	}
	if r := e.do(request{method: "POST", path: "/api/account/payment-method", cookie: un.Cookie}); r.status == http.StatusOK {
		t.Fatalf("an unverified account's card setup = %d", r.status)
	}
	if r := e.do(request{method: "DELETE", path: "/api/account/payment-method", cookie: s.Cookie}); r.status != http.StatusNoContent {
		t.Fatalf("DELETE payment-method = %d %s", r.status, r.body)
	}
	b = get()
	if b.Enabled || b.PaymentMethod != nil || b.DisabledReason == nil || *b.DisabledReason != "payment_method_removed" {
		t.Fatalf("after removing the card %+v", b)
	}
	if r := e.do(request{method: "GET", path: "/api/account/auto-recharge"}); r.status != http.StatusUnauthorized {
		t.Fatalf("without a session = %d", r.status)
	}
}
