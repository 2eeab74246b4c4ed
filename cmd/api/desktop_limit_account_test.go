package main

import (
	"net/http"
	"strconv"
	"testing"
)

// rotate regenerates the seller's key through the dashboard's route.
func (e *desktopEnv) rotate() response {
	e.t.Helper()
	r := e.do(request{method: "POST", path: "/api/user/api-key/regenerate", cookie: e.seller.Cookie})
	if r.status == http.StatusOK {
		var b regenerateResponse
		r.json(e.t, &b)
		e.seller.APIKey = b.APIKey
	}
	return r
}

// The /v1 limit is the account's, not the key's: a rotated key does not
// start a fresh allowance (issue 31, item 8).
func TestDesktopRateLimitSurvivesKeyRotation(t *testing.T) {
	e := newDesktopEnv(t, 3)
	for range 3 {
		expect(t, "a request within the limit", e.call("GET", "/v1/account", nil), 200, "")
	}
	expect(t, "a rotation", e.rotate(), 200, "")
	r := e.call("GET", "/v1/account", nil)
	expect(t, "the new key's first request", r, 429, "Rate limit exceeded: 3 requests per minute")
	if r.header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
}

// Key rotations are limited per account: 429 rate_limited with
// Retry-After past 10 in a row, and the key stays the last one given.
func TestAPIKeyRotationIsLimited(t *testing.T) {
	e := newDesktopEnv(t, 100)
	for i := range 10 {
		expect(t, "rotation "+strconv.Itoa(i+1), e.rotate(), 200, "")
	}
	last := e.seller.APIKey
	r := e.rotate()
	expect(t, "the 11th rotation", r, 429, msgTooManyRotations)
	var b struct{ Code string }
	r.json(t, &b)
	if ra, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || ra <= 0 || b.Code != CodeRateLimited {
		t.Fatalf("the 11th rotation: Retry-After %q, code %q", r.header.Get("Retry-After"), b.Code)
	}
	expect(t, "the last key given", e.call("GET", "/v1/account", nil, "X-API-Key", last), 200, "")
	// Another account rotates as it likes.
	other := e.seedAccount("other@example.com")
	expect(t, "another account's rotation", e.do(request{method: "POST", path: "/api/user/api-key/regenerate", cookie: other.Cookie}), 200, "")
}
