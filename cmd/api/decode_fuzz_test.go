package main

import (
	"bytes"
	"cmp"
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/config"
)

// FuzzJSONRoutes sends random bytes as the body of every POST route, signed
// in as staff with a live API key, and checks that no answer is a 5xx: bad
// input is always the client's 4xx. `go test` runs the seeds below; `go
// test -fuzz FuzzJSONRoutes ./cmd/api` searches further.
func FuzzJSONRoutes(f *testing.F) {
	for _, seed := range []string{
		`{"brand":"Ni\u0000ke"}`, "{\"brand\":\"Ni\xffke\"}", `{"subject":"\u0000","message":"x"}`,
		`{"credits":5,"reason":"a\u0000"}`, `[1,2,3]`, `"text"`, `null`, `{}`, `{"email":1}`,
		`{"email":"a@[127.0.0.1]","password":"12345678"}`, `{"amazonUrl":"https://www.amazon.com/dp/B000000001"}`,
		`{"credits":-1}`, `{"credits":1e400}`, `{"code":"12345\u0000"}`, "\xff\xfe\xfd", `{"a":{"b":[{"c":"\u0000"}]}}`, ``,
	} {
		f.Add([]byte(seed))
	}
	// An installer, so the download link's answer is the seller's to change
	// (403 without a subscription), not a missing file's 503.
	e := newTestEnv(f, withRealInstaller(f), func(c *config.Config) { c.RateLimitPerMinute = 1 << 30 })
	s := e.seedAccount("fuzz@example.com")
	e.exec(`UPDATE users SET is_staff = true WHERE account_id = $1`, s.ID)
	var routes []string
	err := chi.Walk(e.handler.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if method == http.MethodPost {
			// {name}: an unknown projection, so a valid call stays cheap.
			routes = append(routes, strings.NewReplacer("{id}", s.ID, "{name}", "unknown").Replace(route))
		}
		return nil
	})
	if err != nil {
		f.Fatal(err)
	}
	// Rotating the key and signing out go last, so the routes before them
	// still have a key and a session.
	slices.SortFunc(routes, func(a, b string) int {
		last := func(r string) int {
			switch {
			case strings.HasSuffix(r, "/logout"):
				return 2
			case strings.HasSuffix(r, "/regenerate"):
				return 1
			}
			return 0
		}
		return cmp.Or(cmp.Compare(last(a), last(b)), cmp.Compare(a, b))
	})
	if len(routes) < 12 {
		f.Fatalf("only %d POST routes found: %v", len(routes), routes)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		// A fresh session each time: a fuzzed call may sign out or rotate.
		token, err := e.deps.Auth.CreateSession(context.Background(), e.deps.Pool, s.ID, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		rotated, err := e.deps.App.Commands.RotateAPIKey.Handle(context.Background(), command.RotateAPIKey{AccountID: s.ID, Metadata: eventstore.Metadata{Actor: "fuzz"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, route := range routes {
			req, err := http.NewRequest(http.MethodPost, e.srv.URL+route, bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-API-Key", rotated.APIKey)
			req.AddCookie(&http.Cookie{Name: sessionCookie, Value: token})
			res, err := e.srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if testing.Verbose() {
				t.Logf("POST %s = %d", route, res.StatusCode)
			}
			if res.StatusCode >= 500 {
				t.Errorf("POST %s with %q = %d", route, body, res.StatusCode)
			}
		}
	})
}
