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
	t.Parallel()
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
	write("routes.json", `["/","/dashboard","/checkout/success","/staff/accounts/*"]`)
	e := newTestEnv(t, func(c *config.Config) { c.WebappDir = dir })

	for _, p := range []string{"/", "/dashboard", "/Checkout/Success/", "/staff/accounts/4f1c"} {
		r := e.do(request{method: "GET", path: p})
		if r.status != 200 || !strings.Contains(string(r.body), "id=root") {
			t.Errorf("GET %s = %d %q, want the app's index.html", p, r.status, r.body)
		}
	}
	// A path no route of the app matches: the app's not-found screen, with
	// the status that says so.
	for _, p := range []string{"/no/such/page", "/.vite/manifest.json", "/sitemap.xml", "/staff/accounts/4f1c/more"} {
		r := e.do(request{method: "GET", path: p})
		if r.status != http.StatusNotFound || !strings.Contains(string(r.body), "id=root") || r.header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("GET %s = %d %s %q, want 404 with the app's index.html", p, r.status, r.header.Get("Content-Type"), r.body)
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
	t.Parallel()
	e := newTestEnv(t, func(c *config.Config) { c.WebappDir = filepath.Join(t.TempDir(), "missing") })
	if r := e.do(request{method: "GET", path: "/dashboard"}); r.status != http.StatusServiceUnavailable || !strings.Contains(string(r.body), "make build") {
		t.Fatalf("without a build: %d %s", r.status, r.body)
	}
}

// Hashed assets go over the wire in the precompressed copy the build wrote
// beside them, in the best encoding the browser accepts, with Vary and the
// original's content type; without a copy or an accepted encoding, as they
// are.
func TestWebappServesPrecompressedAssets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.html":            "<!doctype html><div id=root>app</div>",
		"assets/app-1.js":       "console.log('plain')",
		"assets/app-1.js.br":    "BROTLI-BYTES",
		"assets/app-1.js.gz":    "GZIP-BYTES",
		"assets/only-gz.css":    "body{}",
		"assets/only-gz.css.gz": "GZIP-CSS",
		"assets/small.js":       "1",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := newTestEnv(t, func(c *config.Config) { c.WebappDir = dir })
	for _, tc := range []struct {
		path, accept, wantBody, wantEncoding, wantType string
		wantVary                                       bool
	}{
		{"/assets/app-1.js", "gzip, deflate, br", "BROTLI-BYTES", "br", "text/javascript; charset=utf-8", true},
		{"/assets/app-1.js", "gzip", "GZIP-BYTES", "gzip", "text/javascript; charset=utf-8", true},
		{"/assets/app-1.js", "br;q=0, gzip;q=0.5", "GZIP-BYTES", "gzip", "text/javascript; charset=utf-8", true},
		{"/assets/app-1.js", "*", "BROTLI-BYTES", "br", "text/javascript; charset=utf-8", true},
		{"/assets/app-1.js", "identity", "console.log('plain')", "", "text/javascript; charset=utf-8", true},
		{"/assets/only-gz.css", "br, gzip", "GZIP-CSS", "gzip", "text/css; charset=utf-8", true},
		{"/assets/small.js", "br, gzip", "1", "", "text/javascript; charset=utf-8", false},
	} {
		r := e.do(request{method: "GET", path: tc.path, header: map[string]string{"Accept-Encoding": tc.accept}})
		if r.status != 200 || string(r.body) != tc.wantBody || r.header.Get("Content-Encoding") != tc.wantEncoding ||
			r.header.Get("Content-Type") != tc.wantType || (r.header.Get("Vary") == "Accept-Encoding") != tc.wantVary ||
			!strings.Contains(r.header.Get("Cache-Control"), "immutable") {
			t.Errorf("GET %s (Accept-Encoding %q) = %d %q encoding %q type %q vary %q cache %q", tc.path, tc.accept, r.status, r.body,
				r.header.Get("Content-Encoding"), r.header.Get("Content-Type"), r.header.Get("Vary"), r.header.Get("Cache-Control"))
		}
	}
}

// The signed-out hint (session.go) follows the session cookie on every
// document served, so the webapp asks GET /api/user only when a session may
// exist.
func TestWebappSignedOutHint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<div id=root></div>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "routes.json"), []byte(`["/","/dashboard"]`), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, func(c *config.Config) { c.WebappDir = dir })
	hint := func(r response) *http.Cookie {
		for _, c := range (&http.Response{Header: r.header}).Cookies() {
			if c.Name == signedOutHint {
				return c
			}
		}
		return nil
	}
	// No session cookie: the hint says signed out, readable by script.
	for _, p := range []string{"/", "/dashboard", "/no/such/page"} {
		c := hint(e.do(request{method: "GET", path: p}))
		if c == nil || c.Value != "1" || c.HttpOnly || c.MaxAge < 0 {
			t.Errorf("GET %s without a session: hint %+v, want %s=1 readable by script", p, c, signedOutHint)
		}
	}
	// A session cookie and a stale hint: the hint goes.
	r := e.do(request{method: "GET", path: "/dashboard", cookie: &http.Cookie{Name: sessionCookie, Value: "token"},
		header: map[string]string{"Cookie": signedOutHint + "=1"}})
	if c := hint(r); c == nil || c.MaxAge >= 0 {
		t.Errorf("GET /dashboard with a session cookie and the hint: %+v, want the hint removed", c)
	}
	// A session cookie and no hint: nothing to change.
	if c := hint(e.do(request{method: "GET", path: "/", cookie: &http.Cookie{Name: sessionCookie, Value: "token"}})); c != nil {
		t.Errorf("GET / with a session cookie: hint %+v, want none", c)
	}
	// Assets never carry it.
	if err := os.MkdirAll(filepath.Join(dir, "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "assets", "a-1.js"), []byte("1"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := hint(e.do(request{method: "GET", path: "/assets/a-1.js"})); c != nil {
		t.Errorf("asset: hint %+v", c)
	}
}

// Issue 38 item 2: the HTML answer of a route in the build's preload.json
// names the route's chunks (modulepreload tags in the head, after the
// entry chunk's), so the browser fetches them with the entry chunk; a
// signed-in page's only with a session, none twice, nothing outside /assets/.
func TestWebappPreloadsRouteChunks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.html": "<!doctype html><html><head><title>a2e</title>\n" +
			`<script type="module" crossorigin src="/assets/index-1.js"></script>` + "\n" +
			`<link rel="modulepreload" crossorigin href="/assets/jsx-runtime-1.js">` + "\n" +
			"</head><body><div id=root></div></body></html>",
		"index.html.br": "BROTLI-INDEX",
		"routes.json":   `["/","/dashboard","/api-keys","/terms"]`,
		"preload.json": `{"/":{"signedIn":false,"files":["/assets/landing-1.js","/assets/jsx-runtime-1.js"]},` +
			`"/dashboard":{"signedIn":true,"files":["/assets/app-layout-1.js","/assets/dashboard-1.js","/assets/jsx-runtime-1.js","/assets/cards-1.css","https://elsewhere.example/x.js"]}}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := newTestEnv(t, func(c *config.Config) { c.WebappDir = dir })
	session := &http.Cookie{Name: sessionCookie, Value: "token"}

	r := e.do(request{method: "GET", path: "/Dashboard/", cookie: session, header: map[string]string{"Accept-Encoding": "br"}})
	body := string(r.body)
	if r.status != 200 || r.header.Get("Content-Type") != "text/html; charset=utf-8" || r.header.Get("Content-Encoding") != "" {
		t.Fatalf("GET /dashboard = %d %s %s %q", r.status, r.header.Get("Content-Type"), r.header.Get("Content-Encoding"), body)
	}
	head, _, ok := strings.Cut(body, "</head>")
	if !ok {
		t.Fatalf("no head in %q", body)
	}
	for _, tag := range []string{
		`<link rel="modulepreload" crossorigin href="/assets/app-layout-1.js">`,
		`<link rel="modulepreload" crossorigin href="/assets/dashboard-1.js">`,
		`<link rel="preload" as="style" crossorigin href="/assets/cards-1.css">`,
	} {
		if !strings.Contains(head, tag) {
			t.Errorf("the dashboard's head lacks %s: %q", tag, head)
		}
	}
	if n := strings.Count(body, "/assets/jsx-runtime-1.js"); n != 1 {
		t.Errorf("jsx-runtime named %d times, want once (Vite's own tag): %q", n, body)
	}
	if strings.Contains(body, "elsewhere.example") {
		t.Errorf("a file outside /assets/ was preloaded: %q", body)
	}
	if strings.Index(body, "/assets/index-1.js") > strings.Index(body, "/assets/app-layout-1.js") {
		t.Errorf("the route's chunks come before the entry chunk: %q", body)
	}
	// Not in Link headers: Chromium would fetch them ahead of the entry chunk.
	if got := r.header.Values("Link"); len(got) != 0 {
		t.Errorf("Link headers = %q, want none", got)
	}
	if !strings.Contains(strings.Join(r.header.Values("Vary"), ","), "Cookie") {
		t.Errorf("Vary = %q, want Cookie", r.header.Values("Vary"))
	}

	// Signed out, the dashboard's code is not fetched for nothing: the app
	// sends the visitor to the sign-in page.
	r = e.do(request{method: "GET", path: "/dashboard"})
	if r.status != 200 || strings.Contains(string(r.body), "/assets/dashboard-1.js") {
		t.Errorf("signed out /dashboard = %d %q, want no preloads", r.status, r.body)
	}
	// A public page's chunks, signed out too.
	r = e.do(request{method: "GET", path: "/"})
	if !strings.Contains(string(r.body), `<link rel="modulepreload" crossorigin href="/assets/landing-1.js">`) {
		t.Errorf("GET / = %q, want the landing chunk preloaded", r.body)
	}
	// A route without an entry, and HEAD: the page as built.
	r = e.do(request{method: "GET", path: "/terms", header: map[string]string{"Accept-Encoding": "br"}})
	if r.status != 200 || string(r.body) != "BROTLI-INDEX" {
		t.Errorf("GET /terms = %d %q, want the precompressed index.html", r.status, r.body)
	}
	if r := e.do(request{method: "HEAD", path: "/dashboard", cookie: session}); r.status != 200 || len(r.body) != 0 || r.header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("HEAD /dashboard = %d %q %s", r.status, r.body, r.header.Get("Content-Type"))
	}
}
