package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5/middleware"

	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/metrics"
)

// withWebapp serves a built webapp from a temporary directory.
func withWebapp(t *testing.T) func(*config.Config) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html><title>A2E</title>"), 0o644); err != nil {
		t.Fatal(err)
	}
	return func(c *config.Config) { c.WebappDir = dir }
}

func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, withWebapp(t), withInstaller(t, "A2E-Automation-Setup-2.4.0.exe", []byte("MZ")))
	s := e.seedAccount("headers@example.com")
	e.subscribe(s.ID)
	answers := map[string]response{
		"html":     e.do(request{method: "GET", path: "/dashboard"}),
		"json":     e.do(request{method: "GET", path: "/api/plans"}),
		"error":    e.do(request{method: "GET", path: "/api/user"}),
		"v1":       e.do(request{method: "GET", path: "/v1/account", header: map[string]string{"X-API-Key": s.APIKey}}),
		"download": e.do(request{method: "GET", path: "/api/download/windows", cookie: s.Cookie}),
	}
	for name, r := range answers {
		h := r.header
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "script-src 'self';", "frame-ancestors 'none'", "object-src 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s (%d): CSP %q lacks %q", name, r.status, csp, want)
			}
		}
		if strings.Contains(csp, "stripe") || strings.Contains(csp, "script-src 'self' 'unsafe-inline'") {
			t.Errorf("%s: CSP %q allows more than this origin's scripts", name, csp)
		}
		if h.Get("X-Frame-Options") != "DENY" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "same-origin" {
			t.Errorf("%s: headers %v", name, h)
		}
		if h.Get("Strict-Transport-Security") != "" {
			t.Errorf("%s: HSTS in development", name)
		}
	}
	if r := answers["download"]; r.status != http.StatusOK || r.header.Get("Content-Type") != "application/vnd.microsoft.portable-executable" {
		t.Fatalf("download = %d %v", r.status, r.header)
	}
	if r := answers["html"]; !strings.Contains(r.header.Get("Content-Type"), "text/html") {
		t.Fatalf("html = %v", r.header)
	}
	for _, path := range []string{"/reset-password", "/reset-password/complete?token=secret"} {
		if r := e.do(request{method: "GET", path: path}); r.header.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: Referrer-Policy %q", path, r.header.Get("Referrer-Policy"))
		}
	}
}

func TestSecurityHeadersWithStripeAndInProduction(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, withStripe(t), withRealInstaller(t), func(c *config.Config) { c.Env = config.Production })
	r := e.do(request{method: "GET", path: "/api/plans"})
	csp := r.header.Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self' https://js.stripe.com", "frame-src https://js.stripe.com", "connect-src 'self' https://api.stripe.com", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if !strings.HasPrefix(r.header.Get("Strict-Transport-Security"), "max-age=") {
		t.Errorf("no HSTS in production: %v", r.header)
	}
}

func TestDevelopmentRoutesAnswerOnlyLoopback(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("dev@example.com")
	for _, c := range []struct {
		remote, header, xff string
		want                int
	}{
		{"203.0.113.7:5555", "", "", http.StatusNotFound},
		{"10.0.0.3:5555", "", "", http.StatusNotFound},
		{"127.0.0.1:5555", "X-Forwarded-For", "203.0.113.7", http.StatusNotFound}, // through a local proxy
		{"127.0.0.1:5555", "", "", http.StatusOK},
		{"[::1]:5555", "X-Forwarded-For", "127.0.0.1", http.StatusOK},
		// Issue 25, item 9: a same-host proxy that names the client in
		// another header.
		{"127.0.0.1:5555", "X-Real-IP", "203.0.113.7", http.StatusNotFound},
		{"127.0.0.1:5555", "CF-Connecting-IP", "2001:db8::7", http.StatusNotFound},
		{"127.0.0.1:5555", "True-Client-IP", "203.0.113.7", http.StatusNotFound},
		{"127.0.0.1:5555", "X-Client-IP", "10.0.0.3", http.StatusNotFound},
		{"127.0.0.1:5555", "X-Real-IP", "not an address", http.StatusNotFound},
		{"127.0.0.1:5555", "Forwarded", `for="[2001:db8::7]:4711";proto=https`, http.StatusNotFound},
		{"127.0.0.1:5555", "Forwarded", "for=127.0.0.1, for=203.0.113.7", http.StatusNotFound},
		{"127.0.0.1:5555", "Forwarded", "for=unknown", http.StatusNotFound},
		{"127.0.0.1:5555", "X-Real-IP", "127.0.0.1", http.StatusOK},
		{"127.0.0.1:5555", "Forwarded", `for="[::1]:4711";by=203.0.113.9`, http.StatusOK},
		// Issue 31, item 13: headers of other proxies, and one nobody
		// listed, holding an address.
		{"127.0.0.1:5555", "Fly-Client-IP", "203.0.113.7", http.StatusNotFound},
		{"127.0.0.1:5555", "X-Envoy-External-Address", "203.0.113.7", http.StatusNotFound},
		{"127.0.0.1:5555", "X-Envoy-External-Address", "not an address", http.StatusNotFound},
		{"127.0.0.1:5555", "X-Cluster-Client-IP", "10.0.0.3", http.StatusNotFound},
		{"127.0.0.1:5555", "Fastly-Client-IP", "203.0.113.7", http.StatusNotFound},
		{"127.0.0.1:5555", "X-Original-Forwarded-For", "203.0.113.7", http.StatusNotFound},
		{"127.0.0.1:5555", "X-Originating-IP", "[2001:db8::7]", http.StatusNotFound},
		{"127.0.0.1:5555", "X-Some-Edge-Peer", "203.0.113.7:4711", http.StatusNotFound},
		{"127.0.0.1:5555", "Fly-Client-IP", "::1", http.StatusOK},
		{"127.0.0.1:5555", "X-Envoy-External-Address", "127.0.0.1", http.StatusOK},
		{"127.0.0.1:5555", "X-Forwarded-Proto", "https", http.StatusOK},
	} {
		for _, path := range []string{"/api/dev/mail?to=dev@example.com", "/api/dev/subscription/advance-cycle"} {
			method := "GET"
			if strings.Contains(path, "advance") {
				method = "POST"
			}
			req := httptest.NewRequest(method, path, nil)
			req.RemoteAddr = c.remote
			req.AddCookie(s.Cookie)
			if c.header != "" {
				req.Header.Set(c.header, c.xff)
			}
			w := httptest.NewRecorder()
			e.handler.ServeHTTP(w, req)
			got := w.Code
			if c.want == http.StatusOK && got != http.StatusNotFound {
				got = http.StatusOK // the route answered (the cycle call may refuse on its own terms)
			}
			if got != c.want {
				t.Errorf("%s %s from %s (%s: %q) = %d %s, want %d", method, path, c.remote, c.header, c.xff, w.Code, w.Body, c.want)
			}
		}
	}
}

// Text PostgreSQL cannot store is refused where it is read, with a 400
// naming the field, never a 500.
func TestUnstorableTextIsRefusedNamingTheField(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedVerified("text@example.com")
	e.exec(`UPDATE users SET is_staff = true WHERE account_id = $1`, s.ID)
	e.passMFA(s)
	key := map[string]string{"X-API-Key": s.APIKey}
	for _, c := range []struct {
		name  string
		req   request
		field string
	}{
		{"NUL in a brand", request{method: "POST", path: "/v1/vero-checks", body: `{"brand":"Ni\u0000ke"}`, header: key}, "brand"},
		{"invalid UTF-8 in a brand", request{method: "POST", path: "/v1/vero-checks", body: "{\"brand\":\"Ni\xffke\"}", header: key}, "brand"},
		{"NUL in a support subject", request{method: "POST", path: "/api/support/requests", cookie: s.Cookie,
			body: `{"subject":"a\u0000b","message":"Hello there, this is long enough."}`}, "subject"},
		{"NUL in a nested key", request{method: "POST", path: "/api/register", body: `{"email":"x@example.com","password":"12345678","a\u0000":1}`}, "body"},
		{"NUL in an adjustment reason", request{method: "POST", path: "/api/staff/accounts/" + s.ID + "/adjustments", cookie: s.Cookie,
			body: `{"credits":5,"reason":"goodwill\u0000"}`, header: map[string]string{"Idempotency-Key": "k1"}}, "reason"},
		{"bytes in Idempotency-Key", request{method: "POST", path: "/v1/listings", body: `{"amazonUrl":"https://www.amazon.com/dp/B000000001"}`,
			header: map[string]string{"X-API-Key": s.APIKey, "Idempotency-Key": "\xff\xfe"}}, "Idempotency-Key"},
		{"NUL in a staff search", request{method: "GET", path: "/api/staff/accounts?q=a%00b", cookie: s.Cookie}, "q"},
		{"invalid UTF-8 in a query", request{method: "GET", path: "/api/staff/accounts?q=%ff", cookie: s.Cookie}, "q"},
		{"NUL in a path", request{method: "GET", path: "/api/staff/accounts/a%00b/history", cookie: s.Cookie}, "path"},
	} {
		r := e.do(c.req)
		p := r.problem(t)
		if r.status != http.StatusBadRequest || p.Errors[c.field] == "" || !strings.Contains(r.header.Get("Content-Type"), "application/json") {
			t.Errorf("%s = %d %s, want 400 naming %q", c.name, r.status, r.body, c.field)
		}
	}
	// A request id the server cannot store is replaced, never stored.
	r := e.do(request{method: "POST", path: "/v1/listings", body: `{"amazonUrl":"https://www.amazon.com/dp/B000000001"}`,
		header: map[string]string{"X-API-Key": s.APIKey, "X-Request-ID": "id\xff\xfe\tx"}})
	if r.status >= 500 || r.header.Get("X-Request-ID") == "id\xff\xfe\tx" {
		t.Fatalf("bad X-Request-ID = %d %v", r.status, r.header)
	}
}

// Every refusal is JSON in the {message, errors?} shape.
func TestEveryRefusalIsJSON(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, withWebapp(t))
	s := e.seedAccount("refusal@example.com")
	for _, c := range []struct {
		name    string
		req     request
		status  int
		message string
	}{
		{"cross-origin", request{method: "POST", path: "/api/user/api-key/regenerate", cookie: s.Cookie,
			header: map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}}, http.StatusForbidden, "Cross-origin request refused"},
		{"405 on /api", request{method: "DELETE", path: "/api/plans"}, http.StatusMethodNotAllowed, "Method not allowed"},
		{"405 on /v1", request{method: "DELETE", path: "/v1/listings"}, http.StatusMethodNotAllowed, "Method not allowed"},
		{"405 on a page", request{method: "POST", path: "/dashboard", body: "{}"}, http.StatusMethodNotAllowed, "Method not allowed"},
		{"array body", request{method: "POST", path: "/api/register", body: `[1,2,3]`}, http.StatusBadRequest, "Malformed JSON: the body must be a JSON object"},
		{"wrong field type", request{method: "POST", path: "/api/register", body: `{"email":1}`}, http.StatusBadRequest, `Malformed JSON: field "email" must be a string`},
		{"unknown field", request{method: "POST", path: "/api/register", body: `{"mail":"a"}`}, http.StatusBadRequest, `Malformed JSON: unknown field "mail"`},
	} {
		r := e.do(c.req)
		if r.status != c.status || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") || r.message(t) != c.message {
			t.Errorf("%s = %d %q %s, want %d %q", c.name, r.status, r.header.Get("Content-Type"), r.body, c.status, c.message)
		}
		if strings.Contains(string(r.body), "main.") {
			t.Errorf("%s names a Go type: %s", c.name, r.body)
		}
	}
	if r := e.do(request{method: "DELETE", path: "/api/plans"}); r.header.Get("Allow") != "GET" {
		t.Errorf("Allow = %q", r.header.Get("Allow"))
	}
}

func TestMetricsServedApartFromThePublicPort(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	stop, err := metrics.Serve("METRICS_ADDR", "127.0.0.1:0", e.deps.Registry, e.deps.Log)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	stop, err = metrics.Serve("METRICS_ADDR", addr, e.deps.Registry, e.deps.Log)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	res, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "go_goroutines") {
		t.Fatalf("METRICS_ADDR /metrics = %d", res.StatusCode)
	}
	if r := e.do(request{method: "GET", path: "/metrics"}); strings.Contains(string(r.body), "go_goroutines") {
		t.Fatal("/metrics is served on the public port")
	}
	if _, err := metrics.Serve("METRICS_ADDR", addr, e.deps.Registry, e.deps.Log); err == nil || !strings.Contains(err.Error(), "METRICS_ADDR") {
		t.Fatalf("a taken METRICS_ADDR = %v", err)
	}
}

func TestEmailAddressesAreCheckedAndNormalised(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	for _, bad := range []string{"a@[127.0.0.1]", "a@-example.test", "ev\u202eil@example.com", "a@exam\u200bple.com", "a@127.0.0.1"} {
		r := e.do(request{method: "POST", path: "/api/register", body: map[string]string{"email": bad, "password": testPassword}})
		if r.status != http.StatusBadRequest || r.problem(t).Errors["email"] != msgEmail {
			t.Errorf("register %q = %d %s", bad, r.status, r.body)
		}
	}
	acc := e.register("seller@example.com")
	for _, twin := range []string{"ｓｅｌｌｅｒ@ｅｘａｍｐｌｅ.com", "SELLER@EXAMPLE.COM", " seller@example.com"} {
		r := e.do(request{method: "POST", path: "/api/register", body: map[string]string{"email": twin, "password": testPassword}})
		if r.status != http.StatusConflict {
			t.Errorf("register look-alike %q = %d %s", twin, r.status, r.body)
		}
	}
	// The look-alike signs in to the one account.
	r := e.do(request{method: "POST", path: "/api/login", body: map[string]string{"email": "ｓｅｌｌｅｒ@example.com", "password": testPassword}})
	var got authResponse
	r.json(t, &got)
	if r.status != http.StatusOK || got.User.ID != acc.ID || got.User.Email != "seller@example.com" {
		t.Fatalf("login with a look-alike = %d %s", r.status, r.body)
	}
}

func TestResetMailIsLimitedAndAnswersAlike(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("flood@example.com")
	ask := func(email string) response {
		return e.do(request{method: "POST", path: "/api/auth/reset-password", body: map[string]string{"email": email}})
	}
	for range 16 {
		if r := ask(s.Email); r.status != http.StatusOK || r.message(t) != resetAnswer {
			t.Fatalf("reset = %d %s", r.status, r.body)
		}
	}
	e.resetsHandled()
	if n := len(e.mailTo(s.Email)); n != 1 {
		t.Fatalf("16 requests sent %d reset mails, want 1", n)
	}
	known, unknown := ask(s.Email), ask("nobody@example.com")
	if known.status != unknown.status || string(known.body) != string(unknown.body) {
		t.Fatalf("known %d %s vs unknown %d %s", known.status, known.body, unknown.status, unknown.body)
	}
	var rows int
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT count(*) FROM password_reset_requests WHERE email = 'nobody@example.com'`).Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("an unknown address queued %d requests (%v): the work differs", rows, err)
	}
}

// silentSMTP accepts connections and never says a word, until the test ends.
func silentSMTP(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns <- c
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for {
			select {
			case c := <-conns:
				c.Close()
			default:
				return
			}
		}
	})
	return "smtp://" + ln.Addr().String() + "?tls=none"
}

// The reset answer never waits for the mail server.
func TestResetAnswersWhileTheMailServerIsSilent(t *testing.T) {
	t.Parallel()
	smtpURL := silentSMTP(t)
	e := newTestEnv(t, func(c *config.Config) { c.SMTPURL = smtpURL })
	s := e.seedAccount("silent@example.com")
	client := &http.Client{Timeout: 5 * time.Second} // the SMTP client waits SMTP_TIMEOUT (10 s) before it gives up
	res, err := client.Post(e.srv.URL+"/api/auth/reset-password", "application/json", strings.NewReader(`{"email":"`+s.Email+`"}`))
	if err != nil {
		t.Fatalf("the reset answer waited for the silent mail server: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("reset = %d", res.StatusCode)
	}
}

// Issue 25, item 7: every authenticated answer, the sign-in answers that
// carry the session and the dev mailbox say no-store, so no cache or back
// button keeps an account's data (the profile holds the API key).
func TestAuthenticatedAnswersAreNotStored(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("nostore@example.com")
	staff := e.seedAccount("staff-nostore@example.com")
	e.exec(`UPDATE users SET is_staff = true WHERE account_id = $1`, staff.ID)
	key := map[string]string{"X-API-Key": s.APIKey}
	for name, r := range map[string]response{
		"profile":      e.do(request{method: "GET", path: "/api/user/profile", cookie: s.Cookie}),
		"user":         e.do(request{method: "GET", path: "/api/user", cookie: s.Cookie}),
		"transactions": e.do(request{method: "GET", path: "/api/transactions", cookie: s.Cookie}),
		"usage":        e.do(request{method: "GET", path: "/api/usage-statistics", cookie: s.Cookie}),
		"regenerate":   e.do(request{method: "POST", path: "/api/user/api-key/regenerate", cookie: s.Cookie}),
		"v1 account":   e.do(request{method: "GET", path: "/v1/account", header: key}),
		"v1 listings":  e.do(request{method: "GET", path: "/v1/listings", header: key}),
		"staff":        e.do(request{method: "GET", path: "/api/staff/accounts?q=nostore", cookie: staff.Cookie}),
		"register":     e.do(request{method: "POST", path: "/api/register", body: map[string]string{"email": "fresh-nostore@example.com", "password": testPassword}}),
		"logout":       e.do(request{method: "POST", path: "/api/logout", cookie: staff.Cookie}),
		"dev mail":     e.do(request{method: "GET", path: "/api/dev/mail?to=fresh-nostore@example.com"}),
		"signed out":   e.do(request{method: "GET", path: "/api/user/profile"}),
	} {
		if got := r.header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s (%d): Cache-Control %q", name, r.status, got)
		}
	}
}

// The throttles' client address comes from one header, X-Forwarded-For,
// and only when the TCP peer is a proxy TRUSTED_PROXIES names (issue 31,
// item 13): other proxies' headers never choose the bucket.
func TestClientIPTrustsOnlyXForwardedForFromTrustedProxies(t *testing.T) {
	t.Parallel()
	d := Deps{Config: testConfig(t, func(c *config.Config) { c.TrustedProxies = []string{"10.0.0.0/24"} })}
	for _, c := range []struct{ remote, header, value, want string }{
		{"10.0.0.5:4000", "X-Forwarded-For", "203.0.113.7", "203.0.113.7"},
		{"10.0.0.5:4000", "Fly-Client-IP", "203.0.113.7", "10.0.0.5"},
		{"10.0.0.5:4000", "X-Envoy-External-Address", "203.0.113.7", "10.0.0.5"},
		{"10.0.0.5:4000", "X-Real-IP", "203.0.113.7", "10.0.0.5"},
		{"10.0.0.5:4000", "CF-Connecting-IP", "203.0.113.7", "10.0.0.5"},
		{"198.51.100.9:4000", "X-Forwarded-For", "203.0.113.7", "198.51.100.9"}, // not a trusted proxy
	} {
		var got string
		h := clientIP(d)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
			got = middleware.GetClientIP(r.Context())
		}))
		req := httptest.NewRequest("GET", "/api/auth/login", nil)
		req.RemoteAddr = c.remote
		req.Header.Set(c.header, c.value)
		h.ServeHTTP(httptest.NewRecorder(), req)
		if got != c.want {
			t.Errorf("from %s with %s: %s, client %q, want %q", c.remote, c.header, c.value, got, c.want)
		}
	}
}
