package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
)

// TestRoutedRequestOneContext: in front of the router, withRoutedRequest
// gives the handler one context holding the scope, chi's routing context
// (the route's parameters and pattern as chi's own would) and the
// deadline, in one copy of the request: chi adds none of its own.
func TestRoutedRequestOneContext(t *testing.T) {
	mux := chi.NewRouter()
	var got *http.Request
	mux.Route("/v1", func(r chi.Router) {
		r.Get("/things/{id}", func(w http.ResponseWriter, r *http.Request) { got = r })
	})
	h := withRoutedRequest(time.Minute, mux)
	if rs, ok := h.(chi.Routes); !ok || len(rs.Routes()) == 0 {
		t.Fatal("the server is not walkable as chi.Routes")
	}
	for range 2 {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/things/42", nil))
		if rec.Code != http.StatusOK || got == nil {
			t.Fatalf("answer %d", rec.Code)
		}
		ctx := got.Context()
		rc, ok := ctx.(*requestContext)
		if !ok {
			t.Fatalf("the handler's context is a %T: a copy of the request besides withRoutedRequest's", ctx)
		}
		if scopeOf(ctx) != &rc.scope || rec.Header().Get("X-Request-ID") != requestID(ctx) || len(requestID(ctx)) != 36 {
			t.Fatal("scope not the request context's")
		}
		if chi.URLParam(got, "id") != "42" || got.PathValue("id") != "42" || got.Pattern != "/v1/things/{id}" || chi.RouteContext(ctx).Routes != h.(chi.Routes) {
			t.Fatalf("routing: id %q, pattern %q", chi.URLParam(got, "id"), got.Pattern)
		}
		if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > time.Minute || time.Until(dl) < 50*time.Second {
			t.Fatalf("deadline %v %v", dl, ok)
		}
	}
	// An unknown path and a wrong method are chi's answers, as before.
	for _, c := range []struct {
		method, path string
		code         int
	}{{http.MethodGet, "/nope", 404}, {http.MethodPost, "/v1/things/1", 405}} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		if rec.Code != c.code {
			t.Fatalf("%s %s = %d, want %d", c.method, c.path, rec.Code, c.code)
		}
	}
}

// TestRequestContextDeadline: past its deadline a request's context ends
// with DeadlineExceeded; contexts made from it (WithCancel, AfterFunc: what
// pgx and the batcher do) end with it and start no goroutine to watch it;
// ending the request (the client's context) ends it too.
func TestRequestContextDeadline(t *testing.T) {
	h := routedForTest(30 * time.Millisecond)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		before := runtime.NumGoroutine()
		child, cancel := context.WithCancel(context.WithValue(r.Context(), scopeKey{}, nil))
		defer cancel()
		fired := make(chan struct{})
		stop := context.AfterFunc(r.Context(), func() { close(fired) })
		defer stop()
		if n := runtime.NumGoroutine(); n != before {
			t.Errorf("%d goroutines after WithCancel and AfterFunc, %d before", n, before)
		}
		select {
		case <-child.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("the child did not end at the deadline")
		}
		<-fired
		if !errors.Is(r.Context().Err(), context.DeadlineExceeded) || !errors.Is(child.Err(), context.DeadlineExceeded) {
			t.Fatalf("errors %v, %v", r.Context().Err(), child.Err())
		}
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("answer %d", rec.Code)
	}

	parent, cancel := context.WithCancel(context.Background())
	h = routedForTest(time.Minute)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cancel()
		<-r.Context().Done()
		if !errors.Is(r.Context().Err(), context.Canceled) {
			t.Fatalf("err %v", r.Context().Err())
		}
		w.WriteHeader(http.StatusTeapot)
	}))
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil).WithContext(parent))
	if rec.Code != http.StatusTeapot {
		t.Fatalf("the second handler did not run to its end: answer %d", rec.Code)
	}
}

// TestIdempotencyHashUnchanged: idempotencyOf's hash is the hex SHA-256 of
// method, " ", path, "\n" and the body, as stored with every kept answer.
func TestIdempotencyHashUnchanged(t *testing.T) {
	for _, c := range []struct{ method, path, body string }{{"POST", "/v1/listings", `{"amazonUrl":"x"}`}, {"POST", "/v1/vero-checks", ""}, {"PUT", "/a/ü", strings.Repeat("z", 5000)}, {"POST", "/v1/listings", strings.Repeat("y", 4096)}, {"POST", "/v1/listings", strings.Repeat("y", 4097)}} {
		r := httptest.NewRequest(c.method, c.path, nil)
		sum := sha256.Sum256([]byte(c.method + " " + r.URL.Path + "\n" + c.body))
		got := idempotencyOf(r, "p:", "k", []byte(c.body))
		if got.hash != hex.EncodeToString(sum[:]) || got.key != "p:k" || got.sent != "k" {
			t.Fatalf("%+v: %+v", c, got)
		}
	}
}

// TestRoutedRequestServedAnewFromTheRoot: a request a handler serves from
// the routing context's root (webapp_bootstrap's answers, in a fresh routing
// pass) goes through withRoutedRequest again: its own scope and request id,
// not the page's.
func TestRoutedRequestServedAnewFromTheRoot(t *testing.T) {
	mux := chi.NewRouter()
	var inner string
	mux.Get("/inner", func(w http.ResponseWriter, r *http.Request) { inner = requestID(r.Context()) })
	var outer string
	mux.Get("/outer", func(w http.ResponseWriter, r *http.Request) {
		outer = requestID(r.Context())
		root, ok := chi.RouteContext(r.Context()).Routes.(http.Handler)
		if !ok {
			t.Error("the routing context's Routes is not a handler")
			return
		}
		ctx := context.WithValue(r.Context(), chi.RouteCtxKey, (*chi.Context)(nil))
		root.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/inner", nil).WithContext(ctx))
	})
	h := withRoutedRequest(time.Minute, mux)
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/outer", nil))
	if outer == "" || inner == "" || inner == outer {
		t.Fatalf("outer id %q, inner id %q: the inner request has no scope of its own", outer, inner)
	}
}
