package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/a2e-automation/app/internal/apikeys"
)

// TestRateLimitHeadersAsSet: setRateLimitHeaders leaves the header map as
// Header.Set of the three headers did, and each value is a full slice, so
// a later Add does not write into its neighbour's.
func TestRateLimitHeadersAsSet(t *testing.T) {
	for _, c := range [][3]int64{{60, 59, 1764299045}, {0, 0, 0}, {1 << 30, 1<<30 - 1, 1764299045}, {-1, -5, -7}, {1<<63 - 1, 9, 1<<63 - 1}} {
		want := http.Header{}
		want.Set("X-RateLimit-Limit", strconv.Itoa(int(c[0])))
		want.Set("X-RateLimit-Remaining", strconv.Itoa(int(c[1])))
		want.Set("X-RateLimit-Reset", strconv.FormatInt(c[2], 10))
		got := http.Header{}
		setRateLimitHeaders(got, int(c[0]), int(c[1]), c[2])
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%v: got %v, want %v", c, got, want)
		}
		got.Add("X-RateLimit-Limit", "extra")
		if got.Get("X-RateLimit-Remaining") != want.Get("X-RateLimit-Remaining") || len(got.Values("X-RateLimit-Limit")) != 2 {
			t.Fatalf("%v: an Add changed another header: %v", c, got)
		}
	}
}

// TestRequestScope: withRoutedRequest gives each request a scope with a new id,
// the client's sane X-Request-ID, and its deadline; the id is answered in
// X-Request-ID; admitAPIKey's caller is written into the same scope; the
// key's hash is kept for the one key it was made of.
func TestRequestScope(t *testing.T) {
	var seen []*requestScope
	h := routedForTest(time.Minute)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := scopeOf(r.Context())
		if s == nil {
			t.Fatal("no scope")
		}
		if dl, ok := r.Context().Deadline(); !ok || time.Until(dl) > time.Minute || time.Until(dl) < 50*time.Second {
			t.Fatalf("deadline %v %v", dl, ok)
		}
		seen = append(seen, s)
		if requestID(r.Context()) != s.id || clientRequestID(r.Context()) != s.clientID {
			t.Fatal("ids not the scope's")
		}
		if apiAccount(r.Context()) != "" || apiKeyHash(r.Context()) != "" {
			t.Fatal("a caller before admitAPIKey")
		}
		s.caller = apiCaller{accountID: "acc", keyHash: "hash"}
		if apiAccount(r.Context()) != "acc" || apiKeyHash(r.Context()) != "hash" {
			t.Fatal("caller not read from the scope")
		}
		const k1, k2 = "a2e_live_one", "a2e_live_two"
		if keyHashOf(r.Context(), k1) != apikeys.Hash(k1) || keyHashOf(r.Context(), k1) != apikeys.Hash(k1) ||
			keyHashOf(r.Context(), k2) != apikeys.Hash(k2) || keyHashOf(r.Context(), k1) != apikeys.Hash(k1) {
			t.Fatal("keyHashOf is not apikeys.Hash of its key")
		}
	}))
	for _, c := range []struct{ sent, client string }{{"", ""}, {"mine-1", "mine-1"}, {"bad\x01id", ""}, {string(make([]byte, 65)), ""}} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		if c.sent != "" {
			req.Header.Set("X-Request-ID", c.sent)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		s := seen[len(seen)-1]
		if s.clientID != c.client || rec.Header().Get("X-Request-ID") != s.id || len(s.id) != 36 {
			t.Fatalf("sent %q: scope %+v, answer's X-Request-ID %q", c.sent, s, rec.Header().Get("X-Request-ID"))
		}
	}
	if seen[0] == seen[1] || seen[0].id == seen[1].id {
		t.Fatal("two requests share a scope or an id")
	}
	// Outside a request: nothing, and no panic.
	ctx := context.Background()
	if requestID(ctx) != "" || clientRequestID(ctx) != "" || apiAccount(ctx) != "" || apiKeyHash(ctx) != "" || keyHashOf(ctx, "k") != apikeys.Hash("k") {
		t.Fatal("values outside a request")
	}
}

// TestCanonicalHeaderNames: the names read from http.Header directly are
// the canonical forms of the names Header.Get was given.
func TestCanonicalHeaderNames(t *testing.T) {
	for name, canonical := range map[string]string{apiKeyHeader: canonicalAPIKey, "X-Request-ID": "X-Request-Id",
		"X-RateLimit-Limit": "X-Ratelimit-Limit", "X-RateLimit-Remaining": "X-Ratelimit-Remaining", "X-RateLimit-Reset": "X-Ratelimit-Reset"} {
		if http.CanonicalHeaderKey(name) != canonical {
			t.Errorf("%s: canonical %q, used %q", name, http.CanonicalHeaderKey(name), canonical)
		}
	}
	for _, h := range textHeaders {
		if http.CanonicalHeaderKey(h.name) != h.canonical {
			t.Errorf("%s: canonical %q, used %q", h.name, http.CanonicalHeaderKey(h.name), h.canonical)
		}
	}
	h := http.Header{}
	h.Set(apiKeyHeader, "first")
	h.Add(apiKeyHeader, "second")
	if headerOf(h, canonicalAPIKey) != h.Get(apiKeyHeader) || headerOf(http.Header{}, canonicalAPIKey) != "" {
		t.Fatal("headerOf is not Header.Get")
	}
}

// routedForTest is withRoutedRequest in front of a mux that sends every
// path to the handler under test: the server's request context around it.
func routedForTest(timeout time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		mux := chi.NewMux()
		mux.Handle("/*", next)
		return withRoutedRequest(timeout, mux)
	}
}
