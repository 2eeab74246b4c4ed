package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/pages"
	"github.com/a2e-automation/app/internal/testing/accountstest"
)

// errorBodyOf decodes an error answer and checks what every one carries: a
// documented code and the request id of the X-Request-ID header.
func errorBodyOf(t *testing.T, what string, r response) errorBody {
	t.Helper()
	var b errorBody
	r.json(t, &b)
	if !slices.Contains(errorCodes, b.Code) {
		t.Errorf("%s: code %q is not a documented code (%s)", what, b.Code, r.body)
	}
	if b.RequestID == "" || b.RequestID != r.header.Get("X-Request-ID") {
		t.Errorf("%s: requestId %q, X-Request-ID %q", what, b.RequestID, r.header.Get("X-Request-ID"))
	}
	if b.Message == "" {
		t.Errorf("%s: no message (%s)", what, r.body)
	}
	return b
}

// Every refusal of /v1 carries a code and the request id; every one to a
// request with a key has the rate-limit headers, whatever its status.
func TestDesktopErrorsCarryCodes(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 9) // the table's tenth request with the seller's key is one too many
	e.grant(1)
	spend := func(key string) response {
		return e.call("POST", "/v1/listings", map[string]string{"amazonUrl": productURL}, "Idempotency-Key", key)
	}
	if r := spend("used"); r.status != 201 {
		t.Fatalf("first spend = %d %s", r.status, r.body)
	}
	for _, c := range []struct {
		what   string
		r      response
		status int
		code   string
		rated  bool
	}{
		{"no key", e.do(request{method: "GET", path: "/v1/account"}), 401, CodeAPIKeyMissing, false},
		{"a wrong key", e.do(request{method: "GET", path: "/v1/account", header: map[string]string{"X-API-Key": "a2e_wrong"}}), 401, CodeAPIKeyInvalid, true},
		{"an unknown path", e.call("GET", "/v1/nope", nil), 404, CodeNotFound, true},
		{"a wrong method", e.call("DELETE", "/v1/account", nil), 405, CodeMethodNotAllowed, true},
		{"a bad Idempotency-Key", e.call("POST", "/v1/listings", map[string]string{"amazonUrl": productURL}, "Idempotency-Key", strings.Repeat("k", 256)), 400, CodeInvalidRequest, true},
		{"a bad field", e.call("POST", "/v1/listings", map[string]string{"amazonUrl": "https://example.com"}), 400, CodeInvalidRequest, true},
		{"no credits", spend("second"), 402, CodeInsufficientCredits, true},
		{"a form", e.call("POST", "/v1/listings", "amazonUrl=x", "Content-Type", "application/x-www-form-urlencoded"), 415, CodeUnsupportedMediaType, true},
		{"a reused key", e.call("POST", "/v1/listings", map[string]string{"amazonUrl": "https://www.amazon.com/dp/B000000001"}, "Idempotency-Key", "used"), 422, CodeIdempotencyKeyReused, true},
		{"another listing's id", e.call("GET", "/v1/listings/nope", nil), 404, CodeNotFound, true},
		{"the limit", e.call("GET", "/v1/account", nil), 429, CodeRateLimited, true},
	} {
		if c.r.status != c.status {
			t.Errorf("%s = %d %s, want %d", c.what, c.r.status, c.r.body, c.status)
			continue
		}
		if b := errorBodyOf(t, c.what, c.r); b.Code != c.code {
			t.Errorf("%s: code %q, want %q", c.what, b.Code, c.code)
		}
		if got := c.r.header.Get("X-RateLimit-Limit") != ""; got != c.rated {
			t.Errorf("%s: rate-limit headers %v, want %v", c.what, got, c.rated)
		}
	}
	// The 400 about the header names it, like the 400 about a field.
	r := e.do(request{method: "POST", path: "/v1/listings", body: map[string]string{"amazonUrl": productURL},
		header: map[string]string{"X-API-Key": e.seedAccount("long@example.com").APIKey, "Idempotency-Key": strings.Repeat("k", 256)}})
	if b := errorBodyOf(t, "a long Idempotency-Key", r); b.Errors["Idempotency-Key"] == "" {
		t.Errorf("a long Idempotency-Key: errors %v", b.Errors)
	}
	if r := e.call("GET", "/v1/account", nil); r.header.Get("Retry-After") == "" {
		t.Errorf("429 without Retry-After")
	}
	// 402 says how many credits remain.
	var noCredits struct{ CreditsRemaining *int64 }
	spendAgain := e.do(request{method: "POST", path: "/v1/listings", body: map[string]string{"amazonUrl": productURL},
		header: map[string]string{"X-API-Key": e.seedAccount("poor@example.com").APIKey}})
	spendAgain.json(t, &noCredits)
	if spendAgain.status != 402 || noCredits.CreditsRemaining == nil || *noCredits.CreditsRemaining != 0 {
		t.Errorf("402 = %d %s", spendAgain.status, spendAgain.body)
	}
	// The dashboard's API answers the same way.
	if r := e.do(request{method: "GET", path: "/api/user/profile"}); r.status != 401 || errorBodyOf(t, "/api signed out", r).Code != CodeUnauthenticated {
		t.Errorf("/api signed out = %d %s", r.status, r.body)
	}
}

// The codes are the same in the code, the OpenAPI document and the guide.
func TestErrorCodesAreDocumented(t *testing.T) {
	t.Parallel()
	var doc struct {
		Components struct {
			Schemas struct {
				ErrorCode struct{ Enum []string }
			}
		}
	}
	if err := json.Unmarshal(openAPIDocument, &doc); err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(slices.Values(doc.Components.Schemas.ErrorCode.Enum)); !slices.Equal(got, slices.Sorted(slices.Values(errorCodes))) {
		t.Errorf("openapi.json's ErrorCode enum %v, the server's codes %v", got, errorCodes)
	}
	guide, err := pages.New(t.TempDir(), pages.Vars{}).Get("desktop-api")
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range errorCodes {
		if !strings.Contains(guide.Markdown, "`"+code+"`") {
			t.Errorf("the guide does not name %s", code)
		}
	}
	// Nor does it name a code the server does not have: every backquoted
	// snake_case word in its Errors section is one.
	section := guide.Markdown[strings.Index(guide.Markdown, "## Errors"):]
	section = section[:strings.Index(section, "\n## ")+1]
	for _, m := range regexp.MustCompile("`([a-z]+(?:_[a-z]+)+)`").FindAllStringSubmatch(section, -1) {
		if !slices.Contains(errorCodes, m[1]) {
			t.Errorf("the guide's Errors section names %s, which is no code", m[1])
		}
	}
}

// A listing reads back by id, newest first a page at a time, and by the
// Idempotency-Key that created it, from the ledger: after the key's replay
// window too. Another seller's listing is not found.
func TestListingReadBack(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 100)
	e.grant(10)
	create := func(asin, key string) (listingView, string) {
		t.Helper()
		h := []string{}
		if key != "" {
			h = []string{"Idempotency-Key", key}
		}
		r := e.call("POST", "/v1/listings", map[string]string{"amazonUrl": "https://www.amazon.com/dp/" + asin}, h...)
		if r.status != 201 {
			t.Fatalf("create %s = %d %s", asin, r.status, r.body)
		}
		var l listingView
		r.json(t, &l)
		return l, r.header.Get("X-Request-ID")
	}
	first, firstRequest := create("B000000001", "key-1")
	second, _ := create("B000000002", "")
	third, _ := create("B000000003", "key-3")

	r := e.call("GET", "/v1/listings/"+first.ID, nil)
	var got listingView
	r.json(t, &got)
	if r.status != 200 || got.ID != first.ID || got.ASIN != "B000000001" || got.Status != "queued" ||
		got.IdempotencyKey != "key-1" || got.RequestID != firstRequest || !got.CreatedAt.Equal(first.CreatedAt) {
		t.Fatalf("GET the first = %d %s (created as request %s)", r.status, r.body, firstRequest)
	}
	expectRateHeaders(t, "GET /v1/listings/{id}", r, 100)

	page := func(query string) listingPage {
		t.Helper()
		r := e.call("GET", "/v1/listings"+query, nil)
		if r.status != 200 {
			t.Fatalf("GET /v1/listings%s = %d %s", query, r.status, r.body)
		}
		var p listingPage
		r.json(t, &p)
		return p
	}
	ids := func(p listingPage) (out []string) {
		for _, l := range p.Data {
			out = append(out, l.ID)
		}
		return out
	}
	p1 := page("?limit=2")
	if !slices.Equal(ids(p1), []string{third.ID, second.ID}) || p1.NextCursor == nil {
		t.Fatalf("page 1 = %v next %v", ids(p1), p1.NextCursor)
	}
	p2 := page("?limit=2&cursor=" + url.QueryEscape(*p1.NextCursor))
	if !slices.Equal(ids(p2), []string{first.ID}) || p2.NextCursor != nil {
		t.Fatalf("page 2 = %v next %v", ids(p2), p2.NextCursor)
	}
	if all := page(""); len(all.Data) != 3 || all.NextCursor != nil {
		t.Fatalf("default page = %v", ids(all))
	}
	if p := page("?idempotencyKey=key-3"); !slices.Equal(ids(p), []string{third.ID}) {
		t.Fatalf("by key-3 = %v", ids(p))
	}
	if p := page("?idempotencyKey=never-sent"); len(p.Data) != 0 || p.NextCursor != nil {
		t.Fatalf("by an unknown key = %v", ids(p))
	}

	// A listing made before keys went into the events' metadata is found
	// through the replay table while it keeps the key.
	if _, err := e.deps.Pool.Exec(context.Background(), `UPDATE events SET metadata = metadata - 'idempotencyKey'
		WHERE event_type = 'ListingRequested' AND data->>'listingId' = $1`, third.ID); err != nil {
		t.Fatal(err)
	}
	if p := page("?idempotencyKey=key-3"); !slices.Equal(ids(p), []string{third.ID}) {
		t.Fatalf("by key-3 from the replay table = %v", ids(p))
	}

	// The replay window ends (the pruner removes the key): the ledger still
	// knows which listing the key made.
	if _, err := eventstore.PruneIdempotencyKeys(context.Background(), e.deps.Pool, "desktop:", time.Now().Add(time.Hour), 100); err != nil {
		t.Fatal(err)
	}
	if p := page("?idempotencyKey=key-1"); !slices.Equal(ids(p), []string{first.ID}) {
		t.Fatalf("by key-1 after the prune = %v", ids(p))
	}

	other := e.seedAccount("other@example.com")
	r = e.do(request{method: "GET", path: "/v1/listings/" + first.ID, header: map[string]string{"X-API-Key": other.APIKey}})
	if r.status != 404 || errorBodyOf(t, "another seller's listing", r).Code != CodeNotFound {
		t.Fatalf("another seller's listing = %d %s", r.status, r.body)
	}
	r = e.do(request{method: "GET", path: "/v1/listings?idempotencyKey=key-1", header: map[string]string{"X-API-Key": other.APIKey}})
	if r.status != 200 || !strings.Contains(string(r.body), `"data":[]`) {
		t.Fatalf("another seller's key = %d %s", r.status, r.body)
	}

	for q, field := range map[string]string{"?limit=0": "limit", "?limit=101": "limit", "?limit=x": "limit", "?cursor=nonsense": "cursor",
		"?limt=2": "limt", "?limit=1&limit=2": "limit", "?idempotencyKey=" + strings.Repeat("k", 256): "idempotencyKey",
		"?idempotencyKey=caf%C3%A9": "idempotencyKey"} {
		r := e.call("GET", "/v1/listings"+q, nil)
		if b := errorBodyOf(t, q, r); r.status != 400 || b.Code != CodeInvalidRequest || b.Errors[field] == "" {
			t.Errorf("GET /v1/listings%s = %d %s, want a 400 naming %s", q, r.status, r.body, field)
		}
	}
	if b := e.balance(); b != 7 {
		t.Fatalf("balance %d after 3 spends of 10: reading back is not free", b)
	}
}

// A replay names the request that was charged; its body is the first
// answer's, creditsRemaining included.
func TestReplayNamesTheChargedRequest(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 100)
	e.grant(5)
	send := func() response {
		return e.call("POST", "/v1/listings", map[string]string{"amazonUrl": productURL}, "Idempotency-Key", "replayed")
	}
	first := send()
	e.call("POST", "/v1/listings", map[string]string{"amazonUrl": productURL}, "Idempotency-Key", "another")
	again := send()
	if first.status != 201 || again.status != 201 || string(again.body) != string(first.body) {
		t.Fatalf("first %d %s, replay %d %s", first.status, first.body, again.status, again.body)
	}
	if again.header.Get("Idempotent-Replayed") != "true" || again.header.Get("Original-Request-Id") != first.header.Get("X-Request-ID") ||
		again.header.Get("X-Request-ID") == first.header.Get("X-Request-ID") {
		t.Fatalf("replay headers %v, first request %s", again.header, first.header.Get("X-Request-ID"))
	}
	if first.header.Get("Original-Request-Id") != "" || first.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("a first answer has replay headers: %v", first.header)
	}
	if b := e.balance(); b != 3 {
		t.Fatalf("balance %d, want 3", b)
	}
}

// /v1/account has the dashboard's standing: frozen spending, debt, and the
// credits by source with the monthly ones' expiry.
func TestDesktopAccountStanding(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 100)
	expires := time.Now().Add(72 * time.Hour).UTC().Truncate(time.Second)
	res := accountstest.Do(t, e.repo(), e.seller.ID, func(a *domain.Account, now time.Time) error {
		for _, g := range []domain.CreditsGranted{
			{Amount: 40, Source: domain.SourceMonthly, ExpiresAt: &expires},
			{Amount: 100, Source: domain.SourcePurchase},
			{Amount: 5, Source: domain.SourcePromo},
		} {
			if err := a.GrantCredits(g, now); err != nil {
				return err
			}
		}
		if err := a.RecordPayment(domain.PaymentRecorded{PaymentID: "pi_1", Kind: domain.PaymentKindCredits, Description: "100 credits",
			AmountCents: 999, Status: domain.PaymentPaid}, now); err != nil {
			return err
		}
		return a.OpenDispute("dp_1", "pi_1", 999, now)
	})
	e.waitFor(res.LastPosition)
	var a struct {
		CreditsAvailable, MonthlyCredits, PurchasedCredits, OtherCredits, CreditDebt int64
		MonthlyCreditsExpireAt                                                       *time.Time
		SpendingFrozen                                                               bool
	}
	e.call("GET", "/v1/account", nil).json(t, &a)
	if a.CreditsAvailable != 145 || a.MonthlyCredits != 40 || a.PurchasedCredits != 100 || a.OtherCredits != 5 || a.CreditDebt != 0 ||
		a.MonthlyCreditsExpireAt == nil || !a.MonthlyCreditsExpireAt.Equal(expires) || !a.SpendingFrozen {
		t.Fatalf("account = %+v", a)
	}
	r := e.call("POST", "/v1/listings", map[string]string{"amazonUrl": productURL})
	if r.status != http.StatusForbidden || errorBodyOf(t, "a frozen spend", r).Code != CodeSpendingFrozen {
		t.Fatalf("a frozen spend = %d %s", r.status, r.body)
	}
}
