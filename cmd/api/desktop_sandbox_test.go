package main

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/testing/accountstest"
)

func testCall(e *testEnv, method, path, key string, body any, extra map[string]string) response {
	h := map[string]string{"X-API-Key": key}
	for k, v := range extra {
		h[k] = v
	}
	return e.do(request{method: method, path: path, body: body, header: h})
}

// 1,000 spends with a test key come from the sandbox: the real balance,
// usage and billing tables and the live read-back are untouched; the
// 1,001st is 402; test listings are read back only with test keys; a reset
// brings 1,000 back; a test key cannot reach the live spends.
func TestTestModeIsolation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, func(c *config.Config) { c.RateLimitPerMinute = 1 << 20 })
	s := e.seedAccount("test-mode@example.com")
	e.waitFor(accountstest.Do(t, e.repo(), s.ID, accountstest.Grant(10, domain.SourcePurchase, nil)).LastPosition)
	k := e.createKey(s, map[string]any{"name": "Sandbox", "mode": "test"})
	if k.Mode != "test" || !strings.HasPrefix(k.APIKey, "a2e_test_") || !strings.HasPrefix(k.Prefix, "a2e_test_") {
		t.Fatalf("test key: %+v", k)
	}
	live := spendWith(e, s.APIKey)
	expect(t, "a live spend", live, 201, "")
	var liveListing struct{ ID string }
	live.json(t, &liveListing)

	var acct struct {
		Mode             string
		CreditsAvailable int64
	}
	testCall(e, "GET", "/v1/account", k.APIKey, nil, nil).json(t, &acct)
	if acct.Mode != "test" || acct.CreditsAvailable != 1000 {
		t.Fatalf("test-mode account: %+v", acct)
	}
	var last struct {
		ID               string
		CreditsRemaining int64
	}
	for i := range 1000 {
		r := spendWith(e, k.APIKey)
		if r.status != 201 {
			t.Fatalf("test spend %d = %d %s", i+1, r.status, r.body)
		}
		if i == 999 {
			r.json(t, &last)
		}
	}
	if last.CreditsRemaining != 0 {
		t.Fatalf("after 1,000 test spends: %d test credits left", last.CreditsRemaining)
	}
	r := spendWith(e, k.APIKey)
	if r.status != 402 || errorBodyOf(t, "the 1,001st test spend", r).Code != CodeInsufficientCredits {
		t.Fatalf("1,001st test spend = %d %s", r.status, r.body)
	}

	acc, err := e.repo().FromSnapshot(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if bal := acc.Balance(e.repo().Now()); bal != 9 {
		t.Fatalf("real balance %d after one live and 1,000 test spends, want 9", bal)
	}
	var spends, usage int64
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT count(*) FROM events WHERE stream_id = $1 AND `+spendEvents,
		"account-"+s.ID).Scan(&spends); err != nil || spends != 1 {
		t.Fatalf("%d spends (%v), want 1", spends, err)
	}
	head, err := e.deps.Store.HeadPosition(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	e.waitFor(head)
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT coalesce(sum(credits), 0) FROM usage_daily WHERE account_id = $1`, s.ID).Scan(&usage); err != nil || usage != 1 {
		t.Fatalf("usage_daily credits %d (%v), want 1", usage, err)
	}
	var page struct{ Data []struct{ ID, Mode string } }
	testCall(e, "GET", "/v1/listings?limit=100", s.APIKey, nil, nil).json(t, &page)
	if len(page.Data) != 1 || page.Data[0].ID != liveListing.ID {
		t.Fatalf("live read-back holds %d listings, want the live one", len(page.Data))
	}
	expect(t, "a test listing read with a live key", testCall(e, "GET", "/v1/listings/"+last.ID, s.APIKey, nil, nil), 404, "")
	expect(t, "a live listing read with a test key", testCall(e, "GET", "/v1/listings/"+liveListing.ID, k.APIKey, nil, nil), 404, "")
	expect(t, "a test listing read with a test key", testCall(e, "GET", "/v1/listings/"+last.ID, k.APIKey, nil, nil), 200, "")
	testCall(e, "GET", "/v1/listings?limit=100", k.APIKey, nil, nil).json(t, &page)
	if len(page.Data) != 100 || page.Data[0].ID != last.ID || page.Data[0].Mode != "test" {
		t.Fatalf("test read-back: %d listings, first %+v", len(page.Data), page.Data[0])
	}
	// The sandbox is empty: a test VeRO check is 402, never paid from the real balance.
	r = testCall(e, "POST", "/v1/vero-checks", k.APIKey, map[string]string{"brand": "Nike"}, nil)
	if r.status != 402 || errorBodyOf(t, "a VeRO check from an empty sandbox", r).Code != CodeInsufficientCredits {
		t.Fatalf("a VeRO check from an empty sandbox = %d %s", r.status, r.body)
	}

	r = e.do(request{method: "POST", path: "/api/sandbox/reset", cookie: s.Cookie})
	if r.status != 200 || !strings.Contains(string(r.body), `"credits":1000`) {
		t.Fatalf("reset = %d %s", r.status, r.body)
	}
	expect(t, "a test spend after the reset", spendWith(e, k.APIKey), 201, "")

	expect(t, "revoking the test key", e.do(request{method: "DELETE", path: "/api/api-keys/" + k.ID, cookie: s.Cookie}), 204, "")
	expect(t, "the revoked test key", spendWith(e, k.APIKey), 401, "Invalid API key")
}

// The test triggers answer as the live API does in each case, only with a
// test key.
func TestTestTriggers(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("test-triggers@example.com")
	e.waitFor(accountstest.Do(t, e.repo(), s.ID, accountstest.Grant(10, domain.SourcePurchase, nil)).LastPosition)
	k := e.createKey(s, map[string]any{"name": "Triggers", "mode": "test"})
	trigger := func(key, asin string, extra map[string]string) response {
		return testCall(e, "POST", "/v1/listings", key, map[string]string{"amazonUrl": "https://www.amazon.com/dp/" + asin}, extra)
	}
	for _, c := range []struct {
		asin   string
		status int
		code   string
	}{{"B0TEST0402", 402, CodeInsufficientCredits}, {"B0TEST0429", 429, CodeRateLimited}, {"B0TEST0503", 503, CodeServiceUnavailable}} {
		r := trigger(k.APIKey, c.asin, nil)
		if r.status != c.status || errorBodyOf(t, c.asin, r).Code != c.code {
			t.Fatalf("%s = %d %s, want %d %s", c.asin, r.status, r.body, c.status, c.code)
		}
		if c.status != 402 && r.header.Get("Retry-After") == "" {
			t.Fatalf("%s without Retry-After", c.asin)
		}
	}
	r := trigger(k.APIKey, "B0TEST0504", map[string]string{"Idempotency-Key": "lost-1"})
	if r.status != 503 || errorBodyOf(t, "B0TEST0504", r).Code != CodeCommitOutcomeUnknown {
		t.Fatalf("B0TEST0504 = %d %s", r.status, r.body)
	}
	var page struct{ Data []struct{ ID, ASIN string } }
	testCall(e, "GET", "/v1/listings?idempotencyKey=lost-1", k.APIKey, nil, nil).json(t, &page)
	if len(page.Data) != 1 || page.Data[0].ASIN != "B0TEST0504" {
		t.Fatalf("the lost commit's listing read back: %+v", page.Data)
	}
	r = trigger(k.APIKey, "B0TEST0504", map[string]string{"Idempotency-Key": "lost-1"})
	if r.status != 201 || r.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("the retry of the lost commit = %d %s", r.status, r.body)
	}
	var acct struct{ CreditsAvailable int64 }
	testCall(e, "GET", "/v1/account", k.APIKey, nil, nil).json(t, &acct)
	if acct.CreditsAvailable != 999 {
		t.Fatalf("%d test credits after the triggers, want 999 (only the lost commit spent)", acct.CreditsAvailable)
	}
	for _, asin := range []string{"B0TEST0402", "B0TEST0429", "B0TEST0503", "B0TEST0504"} {
		expect(t, asin+" with a live key", trigger(s.APIKey, asin, nil), 201, "")
	}
}

// Test mode's read-back pages as the live one does: limit, nextCursor
// until the last page (null there), every listing once, newest first; a
// cursor no page handed out (a live one among them) is 400 with the field.
// An Idempotency-Key used again with another body is 422
// idempotency_key_reused and spends nothing; the same body replays.
func TestTestModeCursorAndIdempotency(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, func(c *config.Config) { c.RateLimitPerMinute = 1 << 20 })
	s := e.seedAccount("test-mode-pages@example.com")
	k := e.createKey(s, map[string]any{"name": "Sandbox", "mode": "test"})
	made := map[string]bool{}
	for range 5 {
		var l struct{ ID string }
		r := spendWith(e, k.APIKey)
		expect(t, "a test spend", r, 201, "")
		r.json(t, &l)
		made[l.ID] = true
	}
	type page struct {
		Data []struct {
			ID        string
			CreatedAt time.Time
		}
		NextCursor *string
	}
	seen, path, pages := map[string]bool{}, "/v1/listings?limit=2", 0
	var prev time.Time
	for {
		var p page
		r := testCall(e, "GET", path, k.APIKey, nil, nil)
		expect(t, "a test-mode page", r, 200, "")
		r.json(t, &p)
		pages++
		for _, l := range p.Data {
			if seen[l.ID] || !made[l.ID] {
				t.Fatalf("page %d: listing %s seen twice or not made", pages, l.ID)
			}
			if !prev.IsZero() && l.CreatedAt.After(prev) {
				t.Fatalf("page %d: %s is newer than the one before it", pages, l.ID)
			}
			seen[l.ID], prev = true, l.CreatedAt
		}
		if p.NextCursor == nil {
			break
		}
		if len(p.Data) != 2 {
			t.Fatalf("page %d has %d listings and a nextCursor", pages, len(p.Data))
		}
		path = "/v1/listings?limit=2&cursor=" + *p.NextCursor
	}
	if pages != 3 || len(seen) != 5 {
		t.Fatalf("%d pages, %d listings read back, want 3 pages and 5", pages, len(seen))
	}
	liveCursor := base64.RawURLEncoding.EncodeToString([]byte("l2.12"))
	for _, bad := range []string{liveCursor, "bm90LWEtY3Vyc29y", "MTIz", "%21"} {
		r := testCall(e, "GET", "/v1/listings?cursor="+bad, k.APIKey, nil, nil)
		if r.status != 400 || errorBodyOf(t, "test-mode cursor "+bad, r).Code != CodeInvalidRequest {
			t.Fatalf("test-mode cursor %s = %d %s", bad, r.status, r.body)
		}
		if !strings.Contains(string(r.body), `"cursor"`) {
			t.Fatalf("cursor %s: %s does not name the field", bad, r.body)
		}
	}

	spend := func(url string) response {
		return testCall(e, "POST", "/v1/listings", k.APIKey, map[string]string{"amazonUrl": url}, map[string]string{"Idempotency-Key": "same-key"})
	}
	var acct struct{ CreditsAvailable int64 }
	first := spend(productURL)
	expect(t, "the first use of the key", first, 201, "")
	testCall(e, "GET", "/v1/account", k.APIKey, nil, nil).json(t, &acct)
	before := acct.CreditsAvailable
	again := spend(productURL)
	expect(t, "the same body again", again, 201, "")
	if again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("the same body again was not a replay: %v", again.header)
	}
	other := spend("https://www.amazon.com/dp/B0OTHER001")
	if other.status != 422 || errorBodyOf(t, "another body under the key", other).Code != CodeIdempotencyKeyReused {
		t.Fatalf("another body under a used Idempotency-Key = %d %s", other.status, other.body)
	}
	testCall(e, "GET", "/v1/account", k.APIKey, nil, nil).json(t, &acct)
	if acct.CreditsAvailable != before {
		t.Fatalf("test credits %d after the replay and the refused reuse, want %d", acct.CreditsAvailable, before)
	}
}

// A VeRO check with a test key answers from the real list and takes a test
// credit, never a real one (no VeroCheckPerformed event, the balance
// untouched); its Idempotency-Key replays the same request uncharged, and
// another brand under that key is 422; a bad brand is the live 400.
func TestTestModeVeroCheck(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("test-mode-vero@example.com")
	e.waitFor(accountstest.Do(t, e.repo(), s.ID, accountstest.Grant(3, domain.SourcePurchase, nil)).LastPosition)
	k := e.createKey(s, map[string]any{"name": "Sandbox", "mode": "test"})
	check := func(brand, idem string) response {
		var extra map[string]string
		if idem != "" {
			extra = map[string]string{"Idempotency-Key": idem}
		}
		return testCall(e, "POST", "/v1/vero-checks", k.APIKey, map[string]string{"brand": brand}, extra)
	}
	type answer struct {
		ID, Brand, Mode  string
		Protected        bool
		CreditsRemaining int64
	}
	var first, again, other answer
	r := check("  louis   VUITTON ", "vero-1")
	expect(t, "a test VeRO check", r, 200, "")
	r.json(t, &first)
	if first.ID == "" || first.Brand != "louis VUITTON" || !first.Protected || first.Mode != "test" || first.CreditsRemaining != 999 {
		t.Fatalf("test VeRO check = %s", r.body)
	}
	r = check("  louis   VUITTON ", "vero-1")
	expect(t, "the same check again", r, 200, "")
	r.json(t, &again)
	if again != first || r.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay = %s %v, want %+v", r.body, r.header, first)
	}
	r = check("Acme Unbranded", "vero-1")
	if r.status != 422 || errorBodyOf(t, "another brand under the key", r).Code != CodeIdempotencyKeyReused {
		t.Fatalf("another brand under a used Idempotency-Key = %d %s", r.status, r.body)
	}
	r = check("Acme Unbranded", "")
	expect(t, "a second test VeRO check", r, 200, "")
	r.json(t, &other)
	if other.Protected || other.CreditsRemaining != 998 {
		t.Fatalf("second test VeRO check = %s", r.body)
	}
	r = check("   ", "")
	if r.status != 400 || !strings.Contains(string(r.body), `"brand"`) {
		t.Fatalf("an empty brand = %d %s", r.status, r.body)
	}

	var acct struct{ CreditsAvailable int64 }
	testCall(e, "GET", "/v1/account", k.APIKey, nil, nil).json(t, &acct)
	if acct.CreditsAvailable != 998 {
		t.Fatalf("test credits %d after two test VeRO checks, want 998", acct.CreditsAvailable)
	}
	acc, err := e.repo().FromSnapshot(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if bal := acc.Balance(e.repo().Now()); bal != 3 {
		t.Fatalf("real balance %d after test VeRO checks, want 3", bal)
	}
	var checks int64
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT count(*) FROM events WHERE stream_id = $1 AND event_type = 'VeroCheckPerformed'`,
		"account-"+s.ID).Scan(&checks); err != nil || checks != 0 {
		t.Fatalf("%d VeroCheckPerformed events (%v), want 0", checks, err)
	}
	expect(t, "a live VeRO check", testCall(e, "POST", "/v1/vero-checks", s.APIKey, map[string]string{"brand": "Nike"}, nil), 200, "")
}

// An Idempotency-Key answers in test mode as in live mode: the same body
// replays; another body is 422 idempotency_key_reused even when it asks
// for the same cleaned URL or brand (the request's hash is compared, not
// what the server made of it), and nothing more is spent.
func TestTestModeIdempotencyComparesTheRequestAsLive(t *testing.T) {
	e := newTestEnv(t, func(c *config.Config) { c.RateLimitPerMinute = 1 << 20 })
	s := e.seedAccount("test-mode-hash@example.com")
	e.waitFor(accountstest.Do(t, e.repo(), s.ID, accountstest.Grant(10, domain.SourcePurchase, nil)).LastPosition)
	test := e.createKey(s, map[string]any{"name": "Sandbox", "mode": "test"})
	type call struct {
		path       string
		body, same map[string]string // same: another body, cleaned to what body asks
	}
	for _, c := range []call{
		{"/v1/listings", map[string]string{"amazonUrl": productURL}, map[string]string{"amazonUrl": "https://www.amazon.com/dp/B08N5WRWNW"}},
		{"/v1/vero-checks", map[string]string{"brand": "Nike"}, map[string]string{"brand": "  Nike "}},
	} {
		for mode, key := range map[string]string{"live": s.APIKey, "test": test.APIKey} {
			what := mode + " " + c.path
			idem := map[string]string{"Idempotency-Key": "hash-" + mode + c.path}
			credits := func() int64 {
				var acct struct{ CreditsAvailable int64 }
				testCall(e, "GET", "/v1/account", key, nil, nil).json(t, &acct)
				return acct.CreditsAvailable
			}
			first := testCall(e, "POST", c.path, key, c.body, idem)
			if first.status >= 300 {
				t.Fatalf("%s: first use = %d %s", what, first.status, first.body)
			}
			before := credits()
			again := testCall(e, "POST", c.path, key, c.body, idem)
			if again.status != first.status || again.header.Get("Idempotent-Replayed") != "true" {
				t.Fatalf("%s: the same body again = %d %v %s, want a replay", what, again.status, again.header, again.body)
			}
			other := testCall(e, "POST", c.path, key, c.same, idem)
			if other.status != 422 || errorBodyOf(t, what, other).Code != CodeIdempotencyKeyReused {
				t.Fatalf("%s: another body under the key = %d %s, want 422 %s", what, other.status, other.body, CodeIdempotencyKeyReused)
			}
			if got := credits(); got != before {
				t.Fatalf("%s: %d credits after the replay and the refused reuse, want %d", what, got, before)
			}
		}
	}
}
