package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/testing/accountstest"
)

func TestProfile(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("profile@example.com")
	get := func() (response, profileResponse) {
		r := e.do(request{method: "GET", path: "/api/user/profile", cookie: s.Cookie})
		var p profileResponse
		r.json(t, &p)
		return r, p
	}

	r, p := get()
	want := profileResponse{SubscriptionStatus: "inactive", APIKey: s.APIKey, CanSubscribe: true}
	want.Email = "profile@example.com"
	if r.status != http.StatusOK || p != want {
		t.Fatalf("new profile = %d %s", r.status, r.body)
	}
	if !jsonHasNull(t, r.body, "subscriptionRenewalDate") || !jsonHasNull(t, r.body, "lastSpendAt") {
		t.Fatalf("renewal date or last spend not null: %s", r.body)
	}

	e.subscribe(s.ID)
	res := accountstest.Do(t, e.repo(), s.ID, func(a *domain.Account, now time.Time) error {
		if err := a.RequestListing("l-1", "B000TEST01", "", now); err != nil {
			return err
		}
		return a.PerformVeroCheck("v-1", "Acme", false, now)
	})
	e.waitFor(res.LastPosition)
	r, p = get()
	renewal, err := time.Parse(time.RFC3339, derefOr(p.SubscriptionRenewalDate))
	if r.status != http.StatusOK || p.SubscriptionStatus != "active" || !p.PremiumAccess || p.CanSubscribe || err != nil || renewal.Before(time.Now().AddDate(0, 0, 27)) ||
		p.CreditsAvailable != domain.MonthlyCredits-2 || p.ListingsCreated != 1 || p.VeroChecks != 1 {
		t.Fatalf("subscribed profile = %d %s", r.status, r.body)
	}
	if p.LastSpendAt == nil || time.Since(*p.LastSpendAt) > time.Minute {
		t.Fatalf("last spend after a listing and a check = %v", p.LastSpendAt)
	}
	// The answer's fields in the order they always had, lastSpendAt (issue
	// 37) added after lowBalance.
	if got := jsonKeys(t, r.body); !slices.Equal(got, []string{"email", "isVerified", "creditDebt", "spendingFrozen", "creditsAvailable",
		"listingsCreated", "veroChecks", "lowBalance", "lastSpendAt", "subscriptionStatus", "subscriptionRenewalDate",
		"subscriptionEndsAt", "premiumAccess", "canSubscribe", "apiKey"}) {
		t.Fatalf("answer's fields %v", got)
	}

	if r := e.do(request{method: "GET", path: "/api/user/profile"}); r.status != http.StatusUnauthorized {
		t.Fatalf("without a session = %d", r.status)
	}
}

func derefOr(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func jsonHasNull(t *testing.T, body []byte, field string) bool {
	var m map[string]any
	response{body: body}.json(t, &m)
	v, ok := m[field]
	return ok && v == nil
}

// jsonKeys is the top-level keys of the JSON object body, in order.
func jsonKeys(t *testing.T, body []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	var keys []string
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestProfileWaitsForTheProjector(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("lagging@example.com")
	// As if the projector had not applied the registration: the profile
	// waits for it, then answers 503 rather than failing.
	e.exec(`DELETE FROM profiles`)
	r := e.do(request{method: "GET", path: "/api/user/profile", cookie: s.Cookie})
	if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" || r.message(t) == "" {
		t.Fatalf("missing profile = %d %s", r.status, r.body)
	}
}

func TestRegenerateAPIKey(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("keys@example.com")
	r := e.do(request{method: "POST", path: "/api/user/api-key/regenerate", cookie: s.Cookie})
	var b regenerateResponse
	r.json(t, &b)
	if r.status != http.StatusOK || b.Message != "API key regenerated" || !apikeys.LooksValid(b.APIKey) || b.APIKey == s.APIKey {
		t.Fatalf("regenerate = %d %s", r.status, r.body)
	}
	ctx := context.Background()
	if _, err := e.deps.Auth.AccountForAPIKey(ctx, apikeys.Hash(s.APIKey)); !errors.Is(err, auth.ErrUnknownAPIKey) {
		t.Fatalf("old key = %v", err)
	}
	if id, err := e.deps.Auth.AccountForAPIKey(ctx, apikeys.Hash(b.APIKey)); err != nil || id != s.ID {
		t.Fatalf("new key = %q, %v", id, err)
	}
	var p profileResponse
	e.do(request{method: "GET", path: "/api/user/profile", cookie: s.Cookie}).json(t, &p)
	if p.APIKey != b.APIKey {
		t.Fatalf("profile shows %q, want the new key", p.APIKey)
	}
	if e.lastEvent(s.ID) != "APIKeyRotated" {
		t.Fatal("no rotation event")
	}
	if r := e.do(request{method: "POST", path: "/api/user/api-key/regenerate"}); r.status != http.StatusUnauthorized {
		t.Fatalf("without a session = %d", r.status)
	}
}

func TestUsageStatistics(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("usage@example.com")
	get := func() (response, usageResponse) {
		r := e.do(request{method: "GET", path: "/api/usage-statistics", cookie: s.Cookie})
		var u usageResponse
		r.json(t, &u)
		return r, u
	}
	r, u := get()
	if r.status != http.StatusOK || u.CreditsUsed != 0 || len(u.Rows) != 3 || u.Rows[0] != (usageRow{Metric: "Credits used"}) ||
		u.Rows[1].Metric != "Listings created" || u.Rows[2].Metric != "VeRO checks" {
		t.Fatalf("idle usage = %d %s", r.status, r.body)
	}

	// Usage a year ago counts in the total only; today's in every column.
	year := time.Now().AddDate(-1, 0, 0)
	accountstest.Do(t, e.repo(), s.ID, accountstest.Grant(10, domain.SourcePurchase, nil))
	old := accounts.NewRepository(e.deps.Store, func() time.Time { return year })
	accountstest.Do(t, old, s.ID, func(a *domain.Account, now time.Time) error { return a.RequestListing("l-old", "B000TEST01", "", now) })
	res := accountstest.Do(t, e.repo(), s.ID, func(a *domain.Account, now time.Time) error {
		for _, id := range []string{"l-1", "l-2"} {
			if err := a.RequestListing(id, "B000TEST01", "", now); err != nil {
				return err
			}
		}
		return a.PerformVeroCheck("v-1", "Acme", true, now)
	})
	e.waitFor(res.LastPosition)
	r, u = get()
	want := []usageRow{
		{Metric: "Credits used", Today: 3, ThisWeek: 3, ThisMonth: 3, Total: 4},
		{Metric: "Listings created", Today: 2, ThisWeek: 2, ThisMonth: 2, Total: 3},
		{Metric: "VeRO checks", Today: 1, ThisWeek: 1, ThisMonth: 1, Total: 1},
	}
	if r.status != http.StatusOK || u.CreditsUsed != 3 || len(u.Rows) != 3 || u.Rows[0] != want[0] || u.Rows[1] != want[1] || u.Rows[2] != want[2] {
		t.Fatalf("usage = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "GET", path: "/api/usage-statistics"}); r.status != http.StatusUnauthorized {
		t.Fatalf("without a session = %d", r.status)
	}
}

func TestTransactions(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("payer@example.com")
	r := e.do(request{method: "GET", path: "/api/transactions", cookie: s.Cookie})
	if r.status != http.StatusOK || string(r.body) != "[]\n" {
		t.Fatalf("no transactions = %d %q", r.status, r.body)
	}
	pay := func(p domain.PaymentRecorded) {
		res := accountstest.Do(t, e.repo(), s.ID, func(a *domain.Account, now time.Time) error { return a.RecordPayment(p, now) })
		e.waitFor(res.LastPosition)
	}
	pay(domain.PaymentRecorded{PaymentID: "pi_1", Kind: domain.PaymentKindSubscription, Description: "Monthly Plan", AmountCents: 2999,
		Status: domain.PaymentPaid, InvoiceURL: "https://invoice.example/1"})
	pay(domain.PaymentRecorded{PaymentID: "pi_2", Kind: domain.PaymentKindCredits, Description: "100 credits", AmountCents: 999,
		Status: domain.PaymentPending, Credits: 100})

	r = e.do(request{method: "GET", path: "/api/transactions", cookie: s.Cookie})
	var list []map[string]any
	r.json(t, &list)
	if r.status != http.StatusOK || len(list) != 2 || list[0]["id"] != "pi_2" || list[1]["id"] != "pi_1" {
		t.Fatalf("transactions = %d %s", r.status, r.body)
	}
	if _, has := list[0]["invoiceUrl"]; has || list[1]["invoiceUrl"] != "https://invoice.example/1" ||
		list[1]["amount"] != float64(2999) || list[1]["status"] != "paid" || list[1]["description"] != "Monthly Plan" {
		t.Fatalf("fields: %s", r.body)
	}
	if _, err := time.Parse(time.RFC3339, list[0]["transactionDate"].(string)); err != nil {
		t.Fatalf("date: %v", err)
	}
	if r := e.do(request{method: "GET", path: "/api/transactions"}); r.status != http.StatusUnauthorized {
		t.Fatalf("without a session = %d", r.status)
	}
}
