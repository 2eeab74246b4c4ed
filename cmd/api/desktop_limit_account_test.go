package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
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
	t.Parallel()
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
	t.Parallel()
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

// Refused API keys are limited per client IP (issue 31, item 9): made-up
// keys from one address get 429 with Retry-After past 20, malformed ones
// included, while another address and a valid key go on.
func TestDesktopAPIKeyFailuresLimitedPerIP(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 100)
	try := func(remote, key string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/v1/account", nil)
		req.RemoteAddr = remote
		req.Header.Set("X-API-Key", key)
		w := httptest.NewRecorder()
		e.handler.ServeHTTP(w, req)
		return w
	}
	for i := range 20 {
		key := "a2e_wrong"
		if i%2 == 0 {
			k, _, err := e.deps.Keys.Generate()
			if err != nil {
				t.Fatal(err)
			}
			key = k
		}
		if w := try("203.0.113.7:5555", key); w.Code != http.StatusUnauthorized {
			t.Fatalf("made-up key %d = %d %s, want 401", i+1, w.Code, w.Body)
		}
	}
	made, _, err := e.deps.Keys.Generate()
	if err != nil {
		t.Fatal(err)
	}
	w := try("203.0.113.7:5555", made)
	var b struct{ Code, Message string }
	if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil || w.Code != http.StatusTooManyRequests || b.Code != CodeRateLimited ||
		b.Message != msgTooManyKeyFailures || w.Header().Get("Retry-After") == "" {
		t.Fatalf("the 21st made-up key = %d %s (Retry-After %q)", w.Code, w.Body, w.Header().Get("Retry-After"))
	}
	if w := try("203.0.113.7:5555", e.seller.APIKey); w.Code != http.StatusOK {
		t.Fatalf("a valid key from the same address = %d %s", w.Code, w.Body)
	}
	if w := try("198.51.100.9:5555", made); w.Code != http.StatusUnauthorized {
		t.Fatalf("a made-up key from another address = %d, want 401", w.Code)
	}
}
