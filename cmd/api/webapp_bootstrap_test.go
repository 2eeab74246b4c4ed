package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2e-automation/app/internal/config"
)

// TestWebappBootstrapsSignedInPage: the HTML answer of a signed-in page
// asked for with a live session carries the session's /api/config, /api/user
// and /api/user/profile answers (what the dashboard's first render reads),
// HTML-escaped and never stored; a stale cookie gets none of the session's.
func TestWebappBootstrapsSignedInPage(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.html":   "<!doctype html><html><head><title>a2e</title>\n</head><body><div id=root></div></body></html>",
		"routes.json":  `["/","/dashboard"]`,
		"preload.json": `{"/":{"signedIn":false,"files":["/assets/landing-1.js"]},"/dashboard":{"signedIn":true,"files":["/assets/signed-in-1.js"]}}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A product name that would end the script element if it went in as is.
	const product = `Lister </script><script>alert(1)</script>`
	e := newTestEnv(t, func(c *config.Config) { c.WebappDir, c.ProductName = dir, product })
	s := e.seedAccount("boot@example.com")

	bootstrap := func(body string) map[string]json.RawMessage {
		t.Helper()
		const open = `<script type="application/json" id="a2e-bootstrap">`
		_, rest, ok := strings.Cut(body, open)
		if !ok {
			return nil
		}
		doc, _, ok := strings.Cut(rest, "</script>")
		if !ok {
			t.Fatalf("the bootstrap script is not closed: %q", body)
		}
		var answers map[string]json.RawMessage
		if err := json.Unmarshal([]byte(doc), &answers); err != nil {
			t.Fatalf("bootstrap %q: %v", doc, err)
		}
		return answers
	}

	r := e.do(request{method: "GET", path: "/dashboard", cookie: s.Cookie})
	if r.status != http.StatusOK || r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("GET /dashboard = %d, Cache-Control %q", r.status, r.header.Get("Cache-Control"))
	}
	if strings.Contains(string(r.body), "<script>alert(1)") {
		t.Fatalf("the product name ended the bootstrap script: %q", r.body)
	}
	answers := bootstrap(string(r.body))
	var cfg struct{ ProductName string }
	var user struct{ Email string }
	var profile struct {
		APIKey           string `json:"apiKey"`
		CreditsAvailable *int64 `json:"creditsAvailable"`
	}
	for path, into := range map[string]any{"/api/config": &cfg, "/api/user": &user, "/api/user/profile": &profile} {
		if err := json.Unmarshal(answers[path], into); err != nil {
			t.Fatalf("bootstrap %s = %s: %v (all: %s)", path, answers[path], err, r.body)
		}
	}
	if cfg.ProductName != product || user.Email != s.Email || profile.APIKey != s.APIKey || profile.CreditsAvailable == nil {
		t.Errorf("bootstrap = config %+v, user %+v, profile %+v; want %q, %s, its key and credits", cfg, user, profile, product, s.Email)
	}
	// The same answers as the routes give the app.
	if direct := e.do(request{method: "GET", path: "/api/user", cookie: s.Cookie}); string(direct.body) != string(answers["/api/user"])+"\n" && string(direct.body) != string(answers["/api/user"]) {
		t.Errorf("GET /api/user = %s, bootstrap %s", direct.body, answers["/api/user"])
	}

	// A cookie whose session has ended: the public config only, the app asks for the rest.
	stale := &http.Cookie{Name: s.Cookie.Name, Value: "no-such-session"}
	answers = bootstrap(string(e.do(request{method: "GET", path: "/dashboard", cookie: stale}).body))
	if _, ok := answers["/api/user"]; ok || answers["/api/config"] == nil {
		t.Errorf("stale session's bootstrap = %v, want /api/config only", answers)
	}
	// Signed out and on a public page: no bootstrap.
	for _, req := range []request{{method: "GET", path: "/dashboard"}, {method: "GET", path: "/", cookie: s.Cookie}} {
		if body := string(e.do(req).body); strings.Contains(body, "a2e-bootstrap") {
			t.Errorf("GET %s (cookie %v) has a bootstrap: %q", req.path, req.cookie != nil, body)
		}
	}
}
