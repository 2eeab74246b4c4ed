package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2e-automation/app/internal/config"
)

func TestWebappServedWithFallback(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.html", "<!doctype html><div id=root>app</div>")
	write("assets/app-1234.js", "console.log(1)")
	write(".vite/manifest.json", "{}")
	e := newTestEnv(t, func(c *config.Config) { c.WebappDir = dir })

	for _, p := range []string{"/", "/dashboard", "/Checkout/Success/", "/no/such/page", "/.vite/manifest.json"} {
		r := e.do(request{method: "GET", path: p})
		if r.status != 200 || !strings.Contains(string(r.body), "id=root") {
			t.Errorf("GET %s = %d %q, want the app's index.html", p, r.status, r.body)
		}
	}
	r := e.do(request{method: "GET", path: "/assets/app-1234.js"})
	if r.status != 200 || string(r.body) != "console.log(1)" || !strings.Contains(r.header.Get("Cache-Control"), "immutable") {
		t.Errorf("asset = %d %q cache %q", r.status, r.body, r.header.Get("Cache-Control"))
	}
	if r := e.do(request{method: "GET", path: "/api/unknown"}); r.status != http.StatusNotFound || r.header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("unknown API path = %d %s, want a JSON 404", r.status, r.header.Get("Content-Type"))
	}
	if r := e.do(request{method: "GET", path: "/v1/unknown"}); r.status != http.StatusNotFound || r.header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("unknown /v1 path = %d %s, want a JSON 404", r.status, r.header.Get("Content-Type"))
	}
}

func TestWebappNotBuilt(t *testing.T) {
	e := newTestEnv(t, func(c *config.Config) { c.WebappDir = filepath.Join(t.TempDir(), "missing") })
	if r := e.do(request{method: "GET", path: "/dashboard"}); r.status != http.StatusServiceUnavailable || !strings.Contains(string(r.body), "make build") {
		t.Fatalf("without a build: %d %s", r.status, r.body)
	}
}
