package main

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"testing"
)

// TestSubscriptionCreatesTogetherMakeOneCheckout sends subscription creates
// at the same moment (issue 25, item 1): one subscription is made, every
// answer carries its client secret, and it is paid once.
func TestSubscriptionCreatesTogetherMakeOneCheckout(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedVerified("double-click@example.com")
	const clicks = 4
	answers := make([]response, clicks)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range clicks {
		wg.Go(func() {
			<-start
			answers[i] = e.post(s, "/api/subscription/create", nil)
		})
	}
	close(start)
	wg.Wait()
	secrets := map[string]bool{}
	for _, r := range answers {
		var got struct{ ClientSecret string }
		r.json(t, &got)
		if r.status != http.StatusOK || got.ClientSecret == "" {
			t.Fatalf("create = %d %s", r.status, r.body)
		}
		secrets[got.ClientSecret] = true
	}
	if len(secrets) != 1 {
		t.Fatalf("%d client secrets for %d creates at once; want one", len(secrets), clicks)
	}
	var made int
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT count(*) FROM payment_intents WHERE account_id = $1 AND kind = 'subscription'`, s.ID).
		Scan(&made); err != nil || made != 1 {
		t.Fatalf("%d subscriptions made (%v); want 1", made, err)
	}
	for secret := range secrets {
		if r, _ := e.confirm(s, secret, "succeeded"); r.status != http.StatusOK {
			t.Fatalf("pay = %d %s", r.status, r.body)
		}
		if r, _ := e.confirm(s, secret, "succeeded"); r.status != http.StatusConflict {
			t.Fatalf("pay again = %d %s", r.status, r.body)
		}
	}
	if p := e.billingProfile(s); p.SubscriptionStatus != "active" || p.CreditsAvailable != 500 {
		t.Fatalf("profile = %+v", p)
	}
}

// TestPaymentCallsAreThrottled (issue 25, item 2): an account's repeated
// purchases of one amount reuse its open PaymentIntent; past the account's
// limit every provider-calling route answers 429 rate_limited with
// Retry-After; accounts behind one IP share that IP's limit.
func TestPaymentCallsAreThrottled(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedVerified("hammer@example.com")
	purchase := func(s seeded, credits int) response {
		return e.post(s, "/api/credits/purchase", map[string]int{"creditAmount": credits})
	}
	first := e.checkout(s, "/api/credits/purchase", map[string]int{"creditAmount": 100})
	for i := 1; i < limitPaymentsAccount.Rate; i++ {
		var got struct{ ClientSecret string }
		r := purchase(s, 100)
		r.json(t, &got)
		if r.status != http.StatusOK || got.ClientSecret != first {
			t.Fatalf("purchase %d = %d %s; want the open PaymentIntent again", i, r.status, r.body)
		}
	}
	var made int
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT count(*) FROM payment_intents WHERE account_id = $1`, s.ID).
		Scan(&made); err != nil || made != 1 {
		t.Fatalf("%d PaymentIntents made (%v); want 1", made, err)
	}
	for _, path := range []string{"/api/credits/purchase", "/api/subscription/create", "/api/subscription/portal",
		"/api/subscription/resume", "/api/subscription/cancel"} {
		r := e.post(s, path, map[string]int{"creditAmount": 500})
		secs, _ := strconv.Atoi(r.header.Get("Retry-After"))
		if r.status != http.StatusTooManyRequests || secs < 1 || r.errorCode(t) != CodeRateLimited || r.message(t) != msgPaymentsTooMany {
			t.Fatalf("%s past the account's limit = %d %s (Retry-After %q)", path, r.status, r.body, r.header.Get("Retry-After"))
		}
	}

	// The IP's limit: other accounts from the same address use up the
	// rest, then a fresh account is refused too.
	for used, n := limitPaymentsAccount.Rate+5, 0; used < limitPaymentsIP.Rate; n++ {
		other := e.seedVerified("farm" + strconv.Itoa(n) + "@example.com")
		for i := 0; i < limitPaymentsAccount.Rate && used < limitPaymentsIP.Rate; i++ {
			if r := purchase(other, 100); r.status != http.StatusOK {
				t.Fatalf("purchase %d of account %d (%d from the IP) = %d %s", i, n, used, r.status, r.body)
			}
			used++
		}
	}
	fresh := e.seedVerified("fresh@example.com")
	if r := purchase(fresh, 100); r.status != http.StatusTooManyRequests || r.errorCode(t) != CodeRateLimited || r.header.Get("Retry-After") == "" {
		t.Fatalf("a fresh account past the IP's limit = %d %s", r.status, r.body)
	}
}

// TestUnverifiedAccountsCannotStartPayments (issue 25, item 2): no
// customer, subscription or PaymentIntent is made for an address nobody
// proved.
func TestUnverifiedAccountsCannotStartPayments(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("unproven@example.com")
	for _, path := range []string{"/api/credits/purchase", "/api/subscription/create"} {
		r := e.post(s, path, map[string]int{"creditAmount": 100})
		if r.status != http.StatusForbidden || r.errorCode(t) != CodeForbidden || r.message(t) != "Please verify your email address before making a payment." {
			t.Fatalf("%s unverified = %d %s", path, r.status, r.body)
		}
	}
	var customers int
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT count(*) FROM stripe_customers WHERE account_id = $1`, s.ID).
		Scan(&customers); err != nil || customers != 0 {
		t.Fatalf("%d customers made (%v); want none", customers, err)
	}
}
