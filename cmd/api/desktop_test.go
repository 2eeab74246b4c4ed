package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/testing/accountstest"
)

// events returns the seller's events of type T.
func events[T domain.Event](e *desktopEnv) []T {
	e.t.Helper()
	history, err := e.repo().History(context.Background(), e.seller.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []T
	for _, rec := range history {
		if ev, ok := rec.Event.(T); ok {
			out = append(out, ev)
		}
	}
	return out
}

// spends are the seller's spends, alone or carried by a listing or a VeRO
// check (domain.SpendOf).
func spends(e *desktopEnv) []domain.CreditsSpent {
	e.t.Helper()
	history, err := e.repo().History(context.Background(), e.seller.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []domain.CreditsSpent
	for _, rec := range history {
		if s, ok := domain.SpendOf(rec.Event); ok {
			out = append(out, s)
		}
	}
	return out
}

// expect fails unless r has status and, when message is not empty, that
// message.
func expect(t *testing.T, what string, r response, status int, message string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("%s = %d %s, want %d", what, r.status, r.body, status)
	}
	if message != "" {
		if got := r.message(t); got != message {
			t.Fatalf("%s: message %q, want %q", what, got, message)
		}
	}
}

// expectRateHeaders fails unless r carries the rate-limit headers.
func expectRateHeaders(t *testing.T, what string, r response, limit int) {
	t.Helper()
	if got := r.header.Get("X-RateLimit-Limit"); got != strconv.Itoa(limit) {
		t.Fatalf("%s: X-RateLimit-Limit %q, want %d", what, got, limit)
	}
	if _, err := strconv.Atoi(r.header.Get("X-RateLimit-Remaining")); err != nil {
		t.Fatalf("%s: X-RateLimit-Remaining %q", what, r.header.Get("X-RateLimit-Remaining"))
	}
	reset, err := strconv.ParseInt(r.header.Get("X-RateLimit-Reset"), 10, 64)
	if err != nil || reset < time.Now().Unix() || reset > time.Now().Add(time.Minute).Unix()+1 {
		t.Fatalf("%s: X-RateLimit-Reset %q", what, r.header.Get("X-RateLimit-Reset"))
	}
}

const productURL = "https://www.amazon.com/Apple-MacBook-Air-13-inch/dp/B08N5WRWNW/ref=sr_1_1?keywords=macbook"

func TestDesktopAccountIsFree(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 100)
	e.grant(5)
	for range 3 {
		r := e.call("GET", "/v1/account", nil)
		expect(t, "GET /v1/account", r, 200, "")
		expectRateHeaders(t, "GET /v1/account", r, 100)
		var a struct {
			Email              string
			CreditsAvailable   *int64
			SubscriptionStatus string
		}
		r.json(t, &a)
		if a.Email != "seller@example.com" || a.CreditsAvailable == nil || *a.CreditsAvailable != 5 || a.SubscriptionStatus != "inactive" {
			t.Fatalf("account = %s", r.body)
		}
	}
	if b := e.balance(); b != 5 || len(spends(e)) != 0 {
		t.Fatalf("reading the account charged: balance %d", b)
	}
	// The answer comes from the account itself, not from the read tables.
	if _, err := e.deps.Pool.Exec(context.Background(), `DELETE FROM profiles WHERE account_id = $1`, e.seller.ID); err != nil {
		t.Fatal(err)
	}
	expect(t, "an account the read tables do not show", e.call("GET", "/v1/account", nil), 200, "")
}

func TestDesktopAuthentication(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 100)
	e.grant(5)
	routes := []struct {
		method, path string
		body         any
	}{
		{"GET", "/v1/account", nil},
		{"POST", "/v1/listings", map[string]string{"amazonUrl": productURL}},
		{"POST", "/v1/vero-checks", map[string]string{"brand": "Nike"}},
	}
	otherKey, _, err := e.deps.Keys.Generate()
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range routes {
		what := rt.method + " " + rt.path
		r := e.do(request{method: rt.method, path: rt.path, body: rt.body})
		expect(t, what+" without a key", r, 401, "Missing X-API-Key header")
		for _, key := range []string{otherKey, "not-a-key", e.seller.APIKey + "x"} {
			r := e.do(request{method: rt.method, path: rt.path, body: rt.body, header: map[string]string{"X-API-Key": key}})
			expect(t, what+" with an unknown key", r, 401, "Invalid API key")
			expectRateHeaders(t, what+" with an unknown key", r, 100)
		}
	}
	// A rotated key stops at once.
	old := e.seller.APIKey
	if _, err := e.deps.App.Commands.RotateAPIKey.Handle(context.Background(), command.RotateAPIKey{AccountID: e.seller.ID, Metadata: eventstore.Metadata{Actor: "test"}}); err != nil {
		t.Fatal(err)
	}
	r := e.do(request{method: "GET", path: "/v1/account", header: map[string]string{"X-API-Key": old}})
	expect(t, "the rotated key", r, 401, "Invalid API key")
	if b := e.balance(); b != 5 {
		t.Fatalf("refused requests charged: balance %d", b)
	}
}

func TestCreateListing(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 100)
	e.grant(3)
	r := e.call("POST", "/v1/listings", map[string]string{"amazonUrl": productURL})
	expect(t, "POST /v1/listings", r, 201, "")
	expectRateHeaders(t, "POST /v1/listings", r, 100)
	var l struct {
		ID, ASIN, AmazonURL, Status string
		CreditsRemaining            *int64
		CreatedAt                   time.Time
	}
	r.json(t, &l)
	if _, err := uuid.Parse(l.ID); err != nil || l.ASIN != "B08N5WRWNW" || l.AmazonURL != "https://www.amazon.com/dp/B08N5WRWNW" ||
		l.Status != "queued" || l.CreditsRemaining == nil || *l.CreditsRemaining != 2 || l.CreatedAt.IsZero() {
		t.Fatalf("listing = %s", r.body)
	}
	if r.header.Get("Idempotent-Replayed") != "" {
		t.Fatal("a first answer says it is replayed")
	}
	if b := e.balance(); b != 2 {
		t.Fatalf("balance %d, want 2", b)
	}
	got := events[domain.ListingRequested](e)
	if len(got) != 1 || got[0].ListingID != l.ID || got[0].ASIN != "B08N5WRWNW" || got[0].AmazonURL != l.AmazonURL {
		t.Fatalf("ListingRequested events = %+v", got)
	}
	// The dashboard's read tables show the new balance at once.
	var a struct{ CreditsAvailable int64 }
	e.call("GET", "/v1/account", nil).json(t, &a)
	if a.CreditsAvailable != 2 {
		t.Fatalf("account after a listing shows %d credits, want 2", a.CreditsAvailable)
	}
}

func TestCreateListingRefusals(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 100)
	e.grant(1)
	const badURL = "amazonUrl must be an Amazon product URL (for example https://www.amazon.com/dp/B08N5WRWNW)"
	for _, c := range []struct {
		what    string
		body    any
		header  []string
		status  int
		message string
	}{
		{"a search URL", map[string]string{"amazonUrl": "https://www.amazon.com/s?k=macbook"}, nil, 400, badURL},
		{"an eBay URL", map[string]string{"amazonUrl": "https://www.ebay.com/itm/B08N5WRWNW"}, nil, 400, badURL},
		{"a short link", map[string]string{"amazonUrl": "https://a.co/d/5FxY3Kz"}, nil, 400,
			"amazonUrl is a short link (a.co, amzn.to): open it and send the full product URL with /dp/ASIN (for example https://www.amazon.com/dp/B08N5WRWNW)"},
		{"no URL", map[string]string{}, nil, 400, badURL},
		{"an empty body", "", nil, 400, "Request body is empty"},
		{"an unknown field", map[string]string{"amazonUrl": productURL, "price": "9"}, nil, 400, ""},
		{"not JSON", "amazonUrl=x", nil, 400, ""},
		{"a form", "amazonUrl=x", []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "Content-Type must be application/json"},
		{"a long Idempotency-Key", map[string]string{"amazonUrl": productURL}, []string{"Idempotency-Key", strings.Repeat("k", 256)}, 400,
			"Idempotency-Key must be at most 255 characters"},
		{"an empty Idempotency-Key", map[string]string{"amazonUrl": productURL}, []string{"Idempotency-Key", ""}, 400,
			"Idempotency-Key must be 1 to 255 characters"},
		{"a huge body", `{"amazonUrl":"` + strings.Repeat("x", maxBody) + `"}`, []string{"Idempotency-Key", "big"}, 413, "Request body is too large"},
	} {
		r := e.call("POST", "/v1/listings", c.body, c.header...)
		expect(t, c.what, r, c.status, c.message)
		expectRateHeaders(t, c.what, r, 100)
	}
	if b := e.balance(); b != 1 || len(spends(e)) != 0 {
		t.Fatalf("refused requests charged: balance %d", b)
	}
	if r := e.call("DELETE", "/v1/listings", nil); r.status != 405 || r.header.Get("Allow") != "GET, POST" || r.message(t) != "Method not allowed" {
		t.Fatalf("DELETE /v1/listings = %d %q %s", r.status, r.header.Get("Allow"), r.body)
	}
	if r := e.call("GET", "/v1/nope", nil); r.status != 404 || r.message(t) == "" {
		t.Fatalf("GET /v1/nope = %d %s", r.status, r.body)
	}
}

func TestDesktopInsufficientCredits(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 100)
	for _, c := range []struct{ path, field, value string }{
		{"/v1/listings", "amazonUrl", productURL},
		{"/v1/vero-checks", "brand", "Nike"},
	} {
		r := e.call("POST", c.path, map[string]string{c.field: c.value}, "Idempotency-Key", "retry-me"+c.path)
		expect(t, "POST "+c.path+" without credits", r, 402, "Insufficient credits")
		var b struct{ CreditsRemaining *int64 }
		r.json(t, &b)
		if b.CreditsRemaining == nil || *b.CreditsRemaining != 0 {
			t.Fatalf("402 body = %s", r.body)
		}
	}
	if n := len(spends(e)) + len(events[domain.ListingRequested](e)); n != 0 {
		t.Fatalf("a refused request recorded %d events", n)
	}
	// A failed request is not remembered: after buying credits, the retry
	// with the same Idempotency-Key goes through.
	e.grant(1)
	r := e.call("POST", "/v1/listings", map[string]string{"amazonUrl": productURL}, "Idempotency-Key", "retry-me/v1/listings")
	expect(t, "the retry after buying credits", r, 201, "")
	if r.header.Get("Idempotent-Replayed") != "" || e.balance() != 0 {
		t.Fatalf("retry: replayed %q, balance %d", r.header.Get("Idempotent-Replayed"), e.balance())
	}
}

func TestVeroCheck(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 100)
	e.grant(2)
	check := func(brand string, wantBrand string, protected bool, remaining int64) {
		t.Helper()
		r := e.call("POST", "/v1/vero-checks", map[string]string{"brand": brand})
		expect(t, "VeRO check of "+brand, r, 200, "")
		expectRateHeaders(t, "VeRO check", r, 100)
		var v struct {
			ID, Brand        string
			Protected        *bool
			CreditsRemaining *int64
		}
		r.json(t, &v)
		if _, err := uuid.Parse(v.ID); err != nil || v.Brand != wantBrand || v.Protected == nil || *v.Protected != protected ||
			v.CreditsRemaining == nil || *v.CreditsRemaining != remaining {
			t.Fatalf("VeRO check of %q = %s", brand, r.body)
		}
	}
	check("  louis   VUITTON ", "louis VUITTON", true, 1)
	check("Acme Unbranded", "Acme Unbranded", false, 0)
	got := events[domain.VeroCheckPerformed](e)
	if len(got) != 2 || got[0].Brand != "louis VUITTON" || !got[0].Protected || got[1].Protected {
		t.Fatalf("VeroCheckPerformed events = %+v", got)
	}

	for _, c := range []struct {
		what, body, message string
	}{
		{"no brand", `{}`, "brand is required"},
		{"a blank brand", `{"brand":"   "}`, "brand is required"},
		{"a long brand", `{"brand":"` + strings.Repeat("é", 101) + `"}`, "brand must be at most 100 characters"},
		{"a number", `{"brand":5}`, ""},
	} {
		expect(t, c.what, e.call("POST", "/v1/vero-checks", c.body), 400, c.message)
	}
	expect(t, "a check without credits", e.call("POST", "/v1/vero-checks", map[string]string{"brand": "Nike"}), 402, "Insufficient credits")
	if n := len(spends(e)); n != 2 {
		t.Fatalf("%d credits spent, want 2", n)
	}
}

func TestDesktopRateLimit(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 3)
	e.grant(10)
	other := e.seedAccount("other@example.com")
	for i := range 3 {
		r := e.call("GET", "/v1/account", nil)
		expect(t, "a request within the limit", r, 200, "")
		expectRateHeaders(t, "a request within the limit", r, 3)
		if got := r.header.Get("X-RateLimit-Remaining"); got != strconv.Itoa(2-i) {
			t.Fatalf("request %d: X-RateLimit-Remaining %s", i+1, got)
		}
	}
	r := e.call("POST", "/v1/listings", map[string]string{"amazonUrl": productURL})
	expect(t, "the 4th request", r, 429, "Rate limit exceeded: 3 requests per minute")
	expectRateHeaders(t, "the 4th request", r, 3)
	if ra, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || ra <= 0 || ra > 60 {
		t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
	}
	if b := e.balance(); b != 10 {
		t.Fatalf("a limited request charged: balance %d", b)
	}
	// Buckets are per key: another account's key still works, and so does
	// the seller's own after someone exhausts an unknown key's bucket.
	r = e.do(request{method: "GET", path: "/v1/account", header: map[string]string{"X-API-Key": other.APIKey}})
	expect(t, "another key", r, 200, "")
	unknown, _, err := e.deps.Keys.Generate()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		r := e.do(request{method: "GET", path: "/v1/account", header: map[string]string{"X-API-Key": unknown}})
		if want := map[bool]int{true: 401, false: 429}[i < 3]; r.status != want {
			t.Fatalf("unknown key, request %d = %d, want %d", i+1, r.status, want)
		}
	}
	r = e.do(request{method: "GET", path: "/v1/account", header: map[string]string{"X-API-Key": other.APIKey}})
	expect(t, "another key after an unknown key's bucket is full", r, 200, "")
	// The document is not metered.
	expect(t, "GET /v1/openapi.json", e.call("GET", "/v1/openapi.json", nil), 200, "")
}

func TestDesktopIdempotency(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 100)
	e.grant(5)
	body := map[string]string{"amazonUrl": productURL}
	first := e.call("POST", "/v1/listings", body, "Idempotency-Key", "key-1")
	again := e.call("POST", "/v1/listings", body, "Idempotency-Key", "key-1")
	expect(t, "the first request", first, 201, "")
	expect(t, "the retry", again, 201, "")
	if !bytes.Equal(first.body, again.body) {
		t.Fatalf("retry answered %s, first %s", again.body, first.body)
	}
	if first.header.Get("Idempotent-Replayed") != "" || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("Idempotent-Replayed: first %q, retry %q", first.header.Get("Idempotent-Replayed"), again.header.Get("Idempotent-Replayed"))
	}
	if b := e.balance(); b != 4 || len(events[domain.ListingRequested](e)) != 1 {
		t.Fatalf("a retry was charged: balance %d", b)
	}

	const reused = "This Idempotency-Key was already used with a different request"
	r := e.call("POST", "/v1/listings", map[string]string{"amazonUrl": "https://www.amazon.de/dp/B08N5WRWNW"}, "Idempotency-Key", "key-1")
	expect(t, "the key with another body", r, 422, reused)
	r = e.call("POST", "/v1/vero-checks", map[string]string{"brand": "Nike"}, "Idempotency-Key", "key-1")
	expect(t, "the key on another route", r, 422, reused)

	// Without a key, or with another key, the same body is a new request.
	expect(t, "no key", e.call("POST", "/v1/listings", body), 201, "")
	expect(t, "another key", e.call("POST", "/v1/listings", body, "Idempotency-Key", "key-2"), 201, "")
	// Keys belong to one account: another seller's "key-1" is theirs.
	other := e.seedAccount("other@example.com")
	res := accountstest.Do(t, e.repo(), other.ID, accountstest.Grant(1, domain.SourcePurchase, nil))
	e.waitFor(res.LastPosition)
	r = e.do(request{method: "POST", path: "/v1/listings", body: body,
		header: map[string]string{"X-API-Key": other.APIKey, "Idempotency-Key": "key-1"}})
	expect(t, "another account's key-1", r, 201, "")
	if r.header.Get("Idempotent-Replayed") != "" {
		t.Fatal("another account got the seller's stored answer")
	}
	if b := e.balance(); b != 2 {
		t.Fatalf("balance %d, want 2", b)
	}
}

func TestDesktopIdempotencyConcurrent(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 100)
	e.grant(5)
	const n = 8
	var wg sync.WaitGroup
	statuses := make([]int, n)
	bodies := make([][]byte, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			req, err := http.NewRequest("POST", e.srv.URL+"/v1/vero-checks", strings.NewReader(`{"brand":"Nike"}`))
			if err != nil {
				errs[i] = err
				return
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-API-Key", e.seller.APIKey)
			req.Header.Set("Idempotency-Key", "same-click")
			res, err := e.srv.Client().Do(req)
			if err != nil {
				errs[i] = err
				return
			}
			defer res.Body.Close()
			statuses[i] = res.StatusCode
			bodies[i], errs[i] = io.ReadAll(res.Body)
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || statuses[i] != 200 || !bytes.Equal(bodies[i], bodies[0]) {
			t.Fatalf("request %d = %d %s (%v); first %s", i, statuses[i], bodies[i], errs[i], bodies[0])
		}
	}
	if b := e.balance(); b != 4 || len(events[domain.VeroCheckPerformed](e)) != 1 {
		t.Fatalf("%d concurrent duplicates: balance %d, want 4", n, b)
	}
}
