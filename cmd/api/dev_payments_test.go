package main

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/config"
)

// simulated is the answer of the simulated provider's routes.
type simulated struct{ Status, Message string }

// checkout starts a payment at path and returns its client secret.
func (e *testEnv) checkout(s seeded, path string, body any) string {
	e.t.Helper()
	var got struct{ ClientSecret string }
	r := e.do(request{method: "POST", path: path, body: body, cookie: s.Cookie})
	r.json(e.t, &got)
	if r.status != 200 || got.ClientSecret == "" {
		e.t.Fatalf("%s = %d %s", path, r.status, r.body)
	}
	return got.ClientSecret
}

// confirm confirms a simulated payment as s.
func (e *testEnv) confirm(s seeded, clientSecret, outcome string) (response, simulated) {
	e.t.Helper()
	var got simulated
	r := e.do(request{method: "POST", path: "/api/dev/payments/confirm", cookie: s.Cookie,
		body: map[string]string{"clientSecret": clientSecret, "outcome": outcome}})
	if r.status == 200 {
		r.json(e.t, &got)
	}
	return r, got
}

// spendV1 spends n credits as the desktop client does, one listing each.
func (e *testEnv) spendV1(s seeded, n int) {
	e.t.Helper()
	for range n {
		r := e.do(request{method: "POST", path: "/v1/listings", body: map[string]string{"amazonUrl": "https://www.amazon.com/dp/B08N5WRWNW"},
			header: map[string]string{"X-API-Key": s.APIKey}})
		if r.status != 201 {
			e.t.Fatalf("POST /v1/listings = %d %s", r.status, r.body)
		}
	}
	e.settle(s.ID)
}

// TestSimulatedProviderJourney buys credits, spends some through /v1,
// subscribes, advances a cycle and cancels, checking the balance in the
// ledger and in the profile after every step.
func TestSimulatedProviderJourney(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, func(c *config.Config) { c.RateLimitPerMinute = 1000 })
	s := e.seedVerified("journey@example.com")
	other := e.seedVerified("someone-else@example.com")

	// Buy 100 credits; the first attempt is declined.
	secret := e.checkout(s, "/api/credits/purchase", map[string]int{"creditAmount": 100})
	if r, _ := e.confirm(other, secret, "succeeded"); r.status != 404 {
		t.Fatalf("confirming another account's payment = %d %s", r.status, r.body)
	}
	if r, got := e.confirm(s, secret, "failed"); r.status != 200 || got.Status != "failed" || got.Message != "Your card was declined." {
		t.Fatalf("declined = %d %s", r.status, r.body)
	}
	e.checkAccount(s.ID, 0, domain.StatusInactive)
	if r, got := e.confirm(s, secret, "succeeded"); r.status != 200 || got.Status != "succeeded" {
		t.Fatalf("confirm = %d %s", r.status, r.body)
	}
	e.checkAccount(s.ID, 100, domain.StatusInactive)
	if r, _ := e.confirm(s, secret, "succeeded"); r.status != 409 {
		t.Fatalf("second confirmation = %d %s", r.status, r.body)
	}

	// Spend 30.
	e.spendV1(s, 30)
	e.checkAccount(s.ID, 70, domain.StatusInactive)

	// Subscribe: the cycle's 500 credits.
	if r := e.do(request{method: "POST", path: "/api/dev/subscription/advance-cycle", cookie: s.Cookie}); r.status != 409 {
		t.Fatalf("advance without a subscription = %d %s", r.status, r.body)
	}
	secret = e.checkout(s, "/api/subscription/create", nil)
	if r, _ := e.confirm(s, secret, "succeeded"); r.status != 200 {
		t.Fatalf("subscribe = %d %s", r.status, r.body)
	}
	e.checkAccount(s.ID, 570, domain.StatusActive)
	a, err := e.repo().Replay(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	firstEnd := *a.PeriodEnd()

	// Advance a cycle after spending 20 monthly credits: the 480 left expire,
	// the next cycle grants 500, the purchased 70 stay.
	e.spendV1(s, 20)
	e.checkAccount(s.ID, 550, domain.StatusActive)
	var got simulated
	r := e.do(request{method: "POST", path: "/api/dev/subscription/advance-cycle", cookie: s.Cookie})
	r.json(t, &got)
	if r.status != 200 || got.Status != "succeeded" {
		t.Fatalf("advance = %d %s", r.status, r.body)
	}
	e.checkAccount(s.ID, 570, domain.StatusActive)
	history, err := e.repo().History(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	var expired []int64
	for _, rec := range history {
		if x, ok := rec.Event.(domain.CreditsExpired); ok {
			expired = append(expired, x.Amount)
		}
	}
	if len(expired) != 1 || expired[0] != 480 {
		t.Fatalf("expiries = %v, want [480]", expired)
	}
	if a, _ := e.repo().Replay(context.Background(), s.ID); !a.PeriodEnd().Equal(firstEnd.AddDate(0, 1, 0)) {
		t.Fatalf("period end = %v, want a month after %v", a.PeriodEnd(), firstEnd)
	}

	// Cancel: active until the period end, the cycle's credits still there.
	if r := e.do(request{method: "POST", path: "/api/subscription/cancel", cookie: s.Cookie}); r.status != 200 || r.message(t) != "Subscription cancelled" {
		t.Fatalf("cancel = %d %s", r.status, r.body)
	}
	e.checkAccount(s.ID, 570, domain.StatusCancelling)
	if r := e.do(request{method: "POST", path: "/api/subscription/cancel", cookie: s.Cookie}); r.status != 409 || !strings.HasPrefix(r.message(t), "Your subscription is already cancelled") {
		t.Fatalf("second cancel = %d %s", r.status, r.body)
	}

	// The transactions list: the declined and paid purchase (one row), and
	// the two paid cycles.
	paid := map[string]int64{}
	for _, x := range e.transactions(s.ID) {
		if x.Status != "paid" {
			t.Errorf("transaction %+v is not paid", x)
		}
		paid[x.Description[:min(len(x.Description), 12)]] += x.AmountCents
	}
	if len(paid) != 2 || paid["100 credits"] != 999 || paid["Monthly Plan"] != 2*2999 {
		t.Fatalf("transactions = %v", paid)
	}
}

func TestSimulatedRoutesNeedASession(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	for _, path := range []string{"/api/dev/payments/confirm", "/api/dev/subscription/advance-cycle",
		"/api/subscription/create", "/api/subscription/cancel"} {
		if r := e.do(request{method: "POST", path: path, body: map[string]string{"clientSecret": "x"}}); r.status != 401 {
			t.Errorf("%s signed out = %d", path, r.status)
		}
	}
}

// TestDevPaymentRoutesSayWhatHappened races ten one-credit refunds of one
// pack (issue 25): those that compute the same refunded total are applied
// once, and only the applied ones say Refunded; the others say nothing was
// refunded. A dispute never opened cannot be won or lost, one open cannot
// be opened again, and a closed one stays closed.
func TestDevPaymentRoutesSayWhatHappened(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedVerified("racing-refunds@example.com")
	secret := e.checkout(s, "/api/credits/purchase", map[string]int{"creditAmount": 100})
	if r, _ := e.confirm(s, secret, "succeeded"); r.status != 200 {
		t.Fatalf("confirm = %d %s", r.status, r.body)
	}
	const racers = 10
	answers := make([]response, racers)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range racers {
		wg.Go(func() {
			<-start
			answers[i] = e.post(s, "/api/dev/payments/refund", map[string]any{"clientSecret": secret, "credits": 1})
		})
	}
	close(start)
	wg.Wait()
	refunded := 0
	for _, r := range answers {
		switch {
		case r.status == 200 && strings.HasPrefix(r.message(t), "Refunded"):
			refunded++
		case r.status == 409 && strings.HasPrefix(r.message(t), "Nothing was refunded"):
		default:
			t.Errorf("racing refund = %d %s", r.status, r.body)
		}
	}
	e.settle(s.ID)
	p := e.billingProfile(s)
	if refunded == 0 || int64(refunded) != 100-p.CreditsAvailable {
		t.Fatalf("%d answers say Refunded, %d credits were taken back; want as many", refunded, 100-p.CreditsAvailable)
	}
	left := p.CreditsAvailable

	dispute := func(status string) response {
		return e.post(s, "/api/dev/payments/dispute", map[string]string{"clientSecret": secret, "status": status})
	}
	for _, status := range []string{"won", "lost"} {
		if r := dispute(status); r.status != 409 || !strings.Contains(r.message(t), "No dispute of this payment is open") {
			t.Fatalf("%s before any dispute = %d %s", status, r.status, r.body)
		}
	}
	if p := e.billingProfile(s); p.SpendingFrozen || p.CreditsAvailable != left {
		t.Fatalf("after refused dispute steps: %+v", p)
	}
	if r := dispute("opened"); r.status != 200 || r.message(t) != "Dispute opened: spending is frozen until it closes" {
		t.Fatalf("open = %d %s", r.status, r.body)
	}
	if r := dispute("opened"); r.status != 409 || r.message(t) != "A dispute of this payment is already open" {
		t.Fatalf("open again = %d %s", r.status, r.body)
	}
	if r := dispute("won"); r.status != 200 || r.message(t) != "Dispute won: spending is unfrozen" {
		t.Fatalf("won = %d %s", r.status, r.body)
	}
	if r := dispute("lost"); r.status != 409 || r.message(t) != "The dispute of this payment is already closed (won)" {
		t.Fatalf("lost after won = %d %s", r.status, r.body)
	}
	if p := e.billingProfile(s); p.SpendingFrozen || p.CreditsAvailable != left {
		t.Fatalf("after the won dispute: %+v", p)
	}
}
