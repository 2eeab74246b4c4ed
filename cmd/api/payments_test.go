package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/catalog"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/testing/stripemock"
	"github.com/a2e-automation/app/internal/testing/stripetest"
	"github.com/a2e-automation/app/projections"
)

const testWebhookSecret = "whsec_api_test"

// withStripe configures the Stripe provider, on stripe-mock.
func withStripe(t *testing.T) func(*config.Config) {
	base := stripemock.URL(t)
	return func(c *config.Config) {
		c.StripeSecretKey, c.StripePublishableKey, c.StripePriceID = "sk_test_api", "pk_test_api", "price_monthly"
		c.StripeWebhookSecret, c.StripeAPIBase = testWebhookSecret, base
	}
}

// settle waits until the read tables show every event of account id.
func (e *testEnv) settle(id string) {
	e.t.Helper()
	recs, err := e.deps.Store.ReadStream(context.Background(), domain.StreamID(id), 0, 0)
	if err != nil {
		e.t.Fatal(err)
	}
	e.waitFor(recs[len(recs)-1].GlobalPosition)
}

// checkAccount asserts account id's balance and subscription status, in
// the ledger and in its profile row.
func (e *testEnv) checkAccount(id string, balance int64, status string) {
	e.t.Helper()
	a, err := e.repo().Replay(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	if got := a.Balance(time.Now()); got != balance {
		e.t.Errorf("ledger balance = %d, want %d", got, balance)
	}
	if got := a.SubscriptionStatus(); got != status {
		e.t.Errorf("ledger status = %s, want %s", got, status)
	}
	p, err := projections.NewReader(e.deps.Pool).Profile(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	if p.CreditsAvailable != balance || p.SubscriptionStatus != status {
		e.t.Errorf("profile = %d credits, %s; want %d, %s", p.CreditsAvailable, p.SubscriptionStatus, balance, status)
	}
}

// transactions returns account id's transactions list, newest first.
func (e *testEnv) transactions(id string) []projections.Transaction {
	e.t.Helper()
	list, err := projections.NewReader(e.deps.Pool).Transactions(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return list
}

func TestPaymentConfig(t *testing.T) {
	t.Parallel()
	type cfg struct {
		PaymentProvider      string
		StripePublishableKey *string
		Environment          string
	}
	var got cfg
	r := newTestEnv(t).do(request{method: "GET", path: "/api/config"})
	r.json(t, &got)
	if r.status != 200 || got.PaymentProvider != "simulated" || got.StripePublishableKey != nil || got.Environment != "development" ||
		!strings.Contains(string(r.body), `"stripePublishableKey":null`) {
		t.Fatalf("simulated config = %d %s", r.status, r.body)
	}
	r = newTestEnv(t, withStripe(t)).do(request{method: "GET", path: "/api/config"})
	r.json(t, &got)
	if r.status != 200 || got.PaymentProvider != "stripe" || got.StripePublishableKey == nil || *got.StripePublishableKey != "pk_test_api" {
		t.Fatalf("stripe config = %d %s", r.status, r.body)
	}
}

func TestConfigForTheWebapp(t *testing.T) {
	t.Parallel()
	type webappConfig struct {
		ProductName, SupportEmail, APIBaseURL string
		SupportPhone                          *string
		RateLimitPerMinute                    int
		PlanFeatures                          []string
		MinCustomCredits                      int64
	}
	var got webappConfig
	e := newTestEnv(t)
	r := e.do(request{method: "GET", path: "/api/config"})
	r.json(t, &got)
	if r.status != 200 || got.ProductName != "Amazon to eBay Automation" || got.SupportEmail != "support@localhost" || got.SupportPhone != nil ||
		!strings.Contains(string(r.body), `"supportPhone":null`) || got.RateLimitPerMinute != 20 || got.APIBaseURL != "http://localhost:8080" ||
		strings.Join(got.PlanFeatures, "|") != strings.Join(catalog.MonthlyPlan().Features, "|") || got.MinCustomCredits != 5 {
		t.Fatalf("config = %d %s", r.status, r.body)
	}
	e = newTestEnv(t, func(c *config.Config) {
		c.ProductName, c.SupportEmail, c.SupportPhone = "Lister", "help@lister.example", "+1 555 0100"
		c.RateLimitPerMinute, c.BaseURL = 60, "https://lister.example"
	})
	r = e.do(request{method: "GET", path: "/api/config"})
	r.json(t, &got)
	if got.ProductName != "Lister" || got.SupportEmail != "help@lister.example" || got.SupportPhone == nil || *got.SupportPhone != "+1 555 0100" ||
		got.RateLimitPerMinute != 60 || got.APIBaseURL != "https://lister.example" {
		t.Fatalf("configured = %d %s", r.status, r.body)
	}
}

func TestCreditPurchaseRequests(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedVerified("buyer@example.com")
	purchase := func(body any) response {
		return e.do(request{method: "POST", path: "/api/credits/purchase", body: body, cookie: s.Cookie})
	}
	for _, body := range []string{`{"creditAmount":1}`, `{"creditAmount":4}`} {
		if r := purchase(body); r.status != 400 || r.message(t) != "The minimum purchase is 5 credits ($0.50)." {
			t.Errorf("%s = %d %s", body, r.status, r.body)
		}
	}
	for _, body := range []string{
		`{"creditAmount":0}`, `{"creditAmount":-5}`, `{"creditAmount":1.5}`, `{"creditAmount":"100"}`,
		`{"creditAmount":true}`, `{"creditAmount":100001}`, `{"creditAmount":1e2}`, `{"creditAmount":99999999999999999999}`,
	} {
		if r := purchase(body); r.status != 400 || r.message(t) != "Please select a valid credit amount." {
			t.Errorf("%s = %d %s", body, r.status, r.body)
		}
	}
	if r := purchase(`{}`); r.status != 400 || r.message(t) != "Credit amount is required." {
		t.Errorf("no amount = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "POST", path: "/api/credits/purchase", body: `{"creditAmount":100}`}); r.status != 401 {
		t.Errorf("signed out = %d", r.status)
	}
	for credits, cents := range map[int]int64{100: 999, 500: 3999, 1000: 6999, 250: 2500, 5: 50} {
		var got struct {
			ClientSecret, Message string
			AmountCents           int64
		}
		r := purchase(map[string]int{"creditAmount": credits})
		r.json(t, &got)
		if r.status != 200 || got.AmountCents != cents || !strings.Contains(got.ClientSecret, "_secret_") || got.Message == "" {
			t.Errorf("%d credits = %d %s", credits, r.status, r.body)
		}
	}
	// Starting a checkout grants nothing and records no payment.
	e.checkAccount(s.ID, 0, domain.StatusInactive)
	if list := e.transactions(s.ID); len(list) != 0 {
		t.Fatalf("transactions = %+v", list)
	}
}

func TestStripeProviderThroughTheAPI(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, withStripe(t))
	s := e.seedVerified("stripe@example.com")
	var sub struct{ ClientSecret, Message string }
	r := e.do(request{method: "POST", path: "/api/subscription/create", cookie: s.Cookie})
	r.json(t, &sub)
	if r.status != 200 || !strings.Contains(sub.ClientSecret, "_secret_") || sub.Message == "" {
		t.Fatalf("subscription create = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "POST", path: "/api/credits/purchase", body: map[string]int{"creditAmount": 100}, cookie: s.Cookie}); r.status != 200 {
		t.Fatalf("purchase = %d %s", r.status, r.body)
	}
	var customers int
	var customerID string
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT count(*), min(customer_id) FROM stripe_customers WHERE account_id = $1`, s.ID).
		Scan(&customers, &customerID); err != nil || customers != 1 || !strings.HasPrefix(customerID, "cus_") {
		t.Fatalf("customers = %d %q, %v; want one", customers, customerID, err)
	}
	var subscriptionID, invoiceID string
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT subscription_id, invoice_id FROM payment_intents
		WHERE account_id = $1 AND kind = 'subscription'`, s.ID).Scan(&subscriptionID, &invoiceID); err != nil {
		t.Fatal(err)
	}

	// The browser's redirect grants nothing; Stripe's invoice.paid does.
	e.checkAccount(s.ID, 0, domain.StatusInactive)
	now := time.Now().UTC().Truncate(time.Second)
	inv := stripetest.Invoice{ID: invoiceID, CustomerID: customerID, SubscriptionID: subscriptionID,
		PeriodStart: now, PeriodEnd: now.AddDate(0, 1, 0), AmountCents: 2999, Paid: true}
	if r := e.webhook("evt_api_paid", "invoice.paid", inv.Object()); r.status != 200 {
		t.Fatalf("invoice.paid = %d %s", r.status, r.body)
	}
	e.settle(s.ID)
	e.checkAccount(s.ID, 500, domain.StatusActive)
	if r := e.do(request{method: "POST", path: "/api/subscription/create", cookie: s.Cookie}); r.status != 409 || r.message(t) != "You already have an active subscription" {
		t.Fatalf("second subscription = %d %s", r.status, r.body)
	}

	// Cancelling asks stripe-mock to cancel at period end.
	if r := e.do(request{method: "POST", path: "/api/subscription/cancel", cookie: s.Cookie}); r.status != 200 || r.message(t) != "Subscription cancelled" {
		t.Fatalf("cancel = %d %s", r.status, r.body)
	}
	e.checkAccount(s.ID, 500, domain.StatusCancelling)

	// The simulated provider's routes do not exist beside Stripe.
	for _, path := range []string{"/api/dev/payments/confirm", "/api/dev/subscription/advance-cycle"} {
		if r := e.do(request{method: "POST", path: path, body: map[string]string{"clientSecret": sub.ClientSecret, "outcome": "succeeded"}, cookie: s.Cookie}); r.status != http.StatusNotFound {
			t.Errorf("%s = %d", path, r.status)
		}
	}
}
