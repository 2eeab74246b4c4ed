package main

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/testing/faultproxy"
	"github.com/a2e-automation/app/internal/testing/stripemock"
)

// withStripeBehind configures the Stripe provider on stripe-mock behind a
// fault proxy, with a short timeout and one retry.
func withStripeBehind(t *testing.T) (func(*config.Config), *faultproxy.Proxy) {
	base := stripemock.URL(t)
	proxy := faultproxy.Start(t, strings.TrimPrefix(base, "http://"))
	return func(c *config.Config) {
		withStripe(t)(c)
		c.StripeAPIBase = "http://" + proxy.Addr()
		c.StripeTimeout, c.StripeMaxRetries = 500*time.Millisecond, 1
	}, proxy
}

// While Stripe is silent or down, its calls answer 503 with Retry-After
// within seconds, and the seller's desktop calls never wait on them. Once
// Stripe is back, the next attempt completes what was interrupted, once.
func TestStripeOutageAnswers503AndStallsNothing(t *testing.T) {
	configure, stripe := withStripeBehind(t)
	e := newTestEnv(t, configure)
	s := e.seedVerified("stripe-outage@example.com")
	e.subscribe(s.ID)
	if r := e.do(request{method: "POST", path: "/api/credits/purchase", cookie: s.Cookie, body: map[string]int{"creditAmount": 100}}); r.status != http.StatusOK {
		t.Fatalf("purchase with Stripe up = %d %s", r.status, r.body) // creates the customer
	}

	for _, mode := range []string{faultproxy.Silent, faultproxy.Down} {
		stripe.Set(mode)
		cancelled := make(chan response, 1)
		start := time.Now()
		go func() { cancelled <- e.do(request{method: "POST", path: "/api/subscription/cancel", cookie: s.Cookie}) }()
		time.Sleep(100 * time.Millisecond)
		// The seller's desktop client, meanwhile, on the same account.
		vero := e.do(request{method: "POST", path: "/v1/vero-checks", body: map[string]string{"brand": "Nike"},
			header: map[string]string{"X-API-Key": s.APIKey}})
		veroDone := time.Since(start)
		r := <-cancelled
		took := time.Since(start)
		if vero.status != http.StatusOK {
			t.Fatalf("%s: vero check = %d %s", mode, vero.status, vero.body)
		}
		if mode == faultproxy.Silent && veroDone >= took {
			t.Errorf("%s: the vero check (%v) waited for the cancellation (%v)", mode, veroDone, took)
		}
		secs, _ := strconv.Atoi(r.header.Get("Retry-After"))
		if r.status != http.StatusServiceUnavailable || secs < 1 || !strings.Contains(r.message(t), "try again") {
			t.Fatalf("%s: cancel = %d %s Retry-After %q", mode, r.status, r.body, r.header.Get("Retry-After"))
		}
		if took > 15*time.Second {
			t.Errorf("%s: cancel answered after %v", mode, took)
		}
		if r := e.do(request{method: "POST", path: "/api/credits/purchase", cookie: s.Cookie, body: map[string]int{"creditAmount": 500}}); r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" {
			t.Fatalf("%s: purchase = %d %s", mode, r.status, r.body)
		}
	}
	if e.lastEvent(s.ID) == "SubscriptionCancelled" {
		t.Fatal("the cancellation was recorded although Stripe never answered")
	}

	stripe.Set(faultproxy.Up)
	if r := e.do(request{method: "POST", path: "/api/subscription/cancel", cookie: s.Cookie}); r.status != http.StatusOK {
		t.Fatalf("cancel with Stripe back = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "POST", path: "/api/credits/purchase", cookie: s.Cookie, body: map[string]int{"creditAmount": 500}}); r.status != http.StatusOK {
		t.Fatalf("purchase with Stripe back = %d %s", r.status, r.body)
	}
	if cancels := e.countEvents(s.ID, "SubscriptionCancelled"); cancels != 1 {
		t.Fatalf("%d cancellations recorded", cancels)
	}
	// Each interrupted action reused its reservation: one key per action,
	// each done once.
	var reservations, done int
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT count(*), count(*) FILTER (WHERE status = 'done')
		FROM provider_requests WHERE account_id = $1 AND action IN ('cancel', 'credits') AND credits IN (0, 500)`, s.ID).Scan(&reservations, &done); err != nil {
		t.Fatal(err)
	}
	if reservations != 2 || done != 2 {
		t.Fatalf("reservations = %d, done = %d; want 2 and 2", reservations, done)
	}
}
