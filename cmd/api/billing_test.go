package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/testing/stripetest"
)

// billingProfile is the part of GET /api/user/profile that billing changes.
type billingProfile struct {
	SubscriptionStatus      string
	SubscriptionRenewalDate *string
	SubscriptionEndsAt      *string
	CreditsAvailable        int64
	CreditDebt              int64
	SpendingFrozen          bool
}

func (e *testEnv) billingProfile(s seeded) billingProfile {
	e.t.Helper()
	var p billingProfile
	r := e.do(request{method: "GET", path: "/api/user/profile", cookie: s.Cookie})
	r.json(e.t, &p)
	if r.status != 200 {
		e.t.Fatalf("profile = %d %s", r.status, r.body)
	}
	return p
}

// post answers a POST as s with body.
func (e *testEnv) post(s seeded, path string, body any) response {
	e.t.Helper()
	return e.do(request{method: "POST", path: path, body: body, cookie: s.Cookie})
}

// TestSubscriptionLifecycleThroughTheAPI cancels, resumes, falls past due,
// pays through the portal's action and cancels while past due, reading the
// profile's contract fields after each step.
func TestSubscriptionLifecycleThroughTheAPI(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, withRealInstaller(t))
	s := e.seedVerified("lifecycle@example.com")
	if r := e.post(s, "/api/subscription/portal", nil); r.status != 409 {
		t.Fatalf("portal before any checkout = %d %s", r.status, r.body)
	}
	if r, _ := e.confirm(s, e.checkout(s, "/api/subscription/create", nil), "succeeded"); r.status != 200 {
		t.Fatalf("subscribe = %d %s", r.status, r.body)
	}
	p := e.billingProfile(s)
	if p.SubscriptionStatus != "active" || p.SubscriptionRenewalDate == nil || p.SubscriptionEndsAt != nil || p.CreditDebt != 0 || p.SpendingFrozen {
		t.Fatalf("active profile = %+v", p)
	}
	renews := *p.SubscriptionRenewalDate

	var portal struct{ URL string }
	r := e.post(s, "/api/subscription/portal", nil)
	r.json(t, &portal)
	if r.status != 200 || !strings.HasSuffix(portal.URL, payments.SimulatedPortalPath) {
		t.Fatalf("portal = %d %s", r.status, r.body)
	}

	// Cancel: active until the period end, then resume.
	if r := e.post(s, "/api/subscription/cancel", nil); r.status != 200 {
		t.Fatalf("cancel = %d %s", r.status, r.body)
	}
	p = e.billingProfile(s)
	if p.SubscriptionStatus != "cancelling" || p.SubscriptionEndsAt == nil || *p.SubscriptionEndsAt != renews || p.SubscriptionRenewalDate != nil {
		t.Fatalf("cancelling profile = %+v, want ends at %s", p, renews)
	}
	if r := e.post(s, "/api/subscription/create", nil); r.status != 409 || !strings.Contains(r.message(t), "Resume it") {
		t.Fatalf("subscribe while cancelling = %d %s", r.status, r.body)
	}
	if r := e.post(s, "/api/download/windows/link", nil); r.status != 200 {
		t.Fatalf("download while cancelling = %d %s", r.status, r.body)
	}
	if r := e.post(s, "/api/subscription/resume", nil); r.status != 200 {
		t.Fatalf("resume = %d %s", r.status, r.body)
	}
	if p = e.billingProfile(s); p.SubscriptionStatus != "active" || p.SubscriptionEndsAt != nil || p.SubscriptionRenewalDate == nil {
		t.Fatalf("resumed profile = %+v", p)
	}
	if r := e.post(s, "/api/subscription/resume", nil); r.status != 409 {
		t.Fatalf("second resume = %d %s", r.status, r.body)
	}

	// Past due: the portal's "pay" retries the invoice; cancelling then ends it.
	if r := e.post(s, "/api/dev/subscription/advance-cycle", map[string]string{"outcome": "failed"}); r.status != 200 {
		t.Fatalf("failed renewal = %d %s", r.status, r.body)
	}
	if p = e.billingProfile(s); p.SubscriptionStatus != "past_due" {
		t.Fatalf("past due profile = %+v", p)
	}
	if r := e.post(s, "/api/subscription/create", nil); r.status != 409 {
		t.Fatalf("subscribe while past due = %d %s", r.status, r.body)
	}
	if r := e.post(s, "/api/dev/subscription/advance-cycle", map[string]string{"outcome": "succeeded"}); r.status != 200 {
		t.Fatalf("paid renewal = %d %s", r.status, r.body)
	}
	if p = e.billingProfile(s); p.SubscriptionStatus != "active" {
		t.Fatalf("paid profile = %+v", p)
	}
	e.post(s, "/api/dev/subscription/advance-cycle", map[string]string{"outcome": "failed"})
	if r := e.post(s, "/api/subscription/cancel", nil); r.status != 200 {
		t.Fatalf("cancel while past due = %d %s", r.status, r.body)
	}
	if p = e.billingProfile(s); p.SubscriptionStatus != "cancelled" {
		t.Fatalf("cancelled profile = %+v", p)
	}
	e.settle(s.ID)
	e.checkAccount(s.ID, p.CreditsAvailable, domain.StatusCancelled)
}

// TestRefundsAndDisputesThroughTheAPI refunds part of a pack, disputes it
// (the desktop API refuses to spend meanwhile) and loses the dispute with
// credits already spent: the balance stays at zero and the debt shows.
func TestRefundsAndDisputesThroughTheAPI(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, func(c *config.Config) { c.RateLimitPerMinute = 1000 })
	s := e.seedVerified("chargeback@example.com")
	for _, path := range []string{"/api/dev/payments/confirm", "/api/dev/payments/refund", "/api/dev/payments/dispute"} {
		if r := e.post(s, path, map[string]string{}); r.status != 400 || r.message(t) != "A client secret is required" {
			t.Fatalf("%s without a client secret = %d %s", path, r.status, r.body)
		}
	}
	secret := e.checkout(s, "/api/credits/purchase", map[string]int{"creditAmount": 100})
	if r := e.post(s, "/api/dev/payments/refund", map[string]string{"clientSecret": secret}); r.status != 409 {
		t.Fatalf("refund before payment = %d %s", r.status, r.body)
	}
	e.confirm(s, secret, "succeeded")

	var got simulated
	r := e.post(s, "/api/dev/payments/refund", map[string]any{"clientSecret": secret, "credits": 20})
	r.json(t, &got)
	if r.status != 200 || got.Status != "partially_refunded" {
		t.Fatalf("partial refund = %d %s", r.status, r.body)
	}
	if p := e.billingProfile(s); p.CreditsAvailable != 80 {
		t.Fatalf("after a partial refund: %+v", p)
	}
	if list := e.transactions(s.ID); len(list) != 1 || list[0].Status != "partially_refunded" {
		t.Fatalf("transactions = %+v", list)
	}
	e.spendV1(s, 70)

	if r := e.post(s, "/api/dev/payments/dispute", map[string]string{"clientSecret": secret, "status": "opened"}); r.status != 200 {
		t.Fatalf("dispute = %d %s", r.status, r.body)
	}
	if p := e.billingProfile(s); !p.SpendingFrozen {
		t.Fatalf("not frozen: %+v", p)
	}
	spend := e.do(request{method: "POST", path: "/v1/listings", body: map[string]string{"amazonUrl": "https://www.amazon.com/dp/B08N5WRWNW"},
		header: map[string]string{"X-API-Key": s.APIKey}})
	if spend.status != http.StatusForbidden || !strings.Contains(spend.message(t), "dispute") {
		t.Fatalf("spend during a dispute = %d %s", spend.status, spend.body)
	}
	if r := e.post(s, "/api/dev/payments/dispute", map[string]string{"clientSecret": secret, "status": "lost"}); r.status != 200 {
		t.Fatalf("lost dispute = %d %s", r.status, r.body)
	}
	p := e.billingProfile(s)
	if p.SpendingFrozen || p.CreditsAvailable != 0 || p.CreditDebt != 70 {
		t.Fatalf("after a lost dispute: %+v, want 0 available and 70 owed", p)
	}
	if list := e.transactions(s.ID); list[0].Status != "chargeback" {
		t.Fatalf("transactions = %+v", list)
	}
	// The next pack repays the debt first.
	next := e.checkout(s, "/api/credits/purchase", map[string]int{"creditAmount": 100})
	e.confirm(s, next, "succeeded")
	if p := e.billingProfile(s); p.CreditsAvailable != 30 || p.CreditDebt != 0 {
		t.Fatalf("after the next pack: %+v, want 30 available and nothing owed", p)
	}
	if r := e.post(s, "/api/dev/payments/dispute", map[string]string{"clientSecret": next, "status": "pending"}); r.status != 400 {
		t.Fatalf("bad dispute status = %d %s", r.status, r.body)
	}
}

func TestWebhookOfAnotherAPIVersionSaysWhich(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, func(c *config.Config) { c.StripeWebhookSecret = "whsec_version" })
	payload := []byte(`{"id":"evt_v","object":"event","api_version":"2023-10-16","created":1,"type":"invoice.paid","data":{"object":{}}}`)
	r := e.do(request{method: "POST", path: "/api/webhooks/stripe", body: string(payload),
		header: map[string]string{"Stripe-Signature": stripetest.Sign(payload, "whsec_version"), "Content-Type": "application/json"}})
	if r.status != 400 || !strings.Contains(r.message(t), "2023-10-16") || !strings.Contains(r.message(t), ".basil") {
		t.Fatalf("webhook = %d %s", r.status, r.body)
	}
}
