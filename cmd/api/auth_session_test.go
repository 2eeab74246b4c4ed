package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/config"
)

func TestRegister(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	res := e.do(request{method: "POST", path: "/api/register", body: map[string]string{"email": "New.Seller@Example.com", "password": testPassword}})
	if res.status != http.StatusCreated {
		t.Fatalf("register = %d %s", res.status, res.body)
	}
	var b authResponse
	res.json(t, &b)
	c := res.cookie()
	if b.Token == "" || b.User.ID == "" || b.User.Email != "new.seller@example.com" || b.User.IsVerified || b.Message == "" {
		t.Fatalf("answer %s", res.body)
	}
	if c == nil || c.Value != b.Token || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure || c.Path != "/" {
		t.Fatalf("cookie %+v", c)
	}
	if r := e.do(request{method: "GET", path: "/api/user", cookie: c}); r.status != http.StatusOK ||
		!strings.Contains(string(r.body), `"id":"`+b.User.ID+`"`) || !strings.Contains(string(r.body), `"isVerified":false`) {
		t.Fatalf("user = %d %s", r.status, r.body)
	}
	if code := e.code("new.seller@example.com"); len(code) != 6 {
		t.Fatalf("code %q", code)
	}
	// The API key issued at sign-up resolves to the account.
	var p profileResponse
	e.do(request{method: "GET", path: "/api/user/profile", cookie: c}).json(t, &p)
	if id, err := e.deps.Auth.AccountForAPIKey(context.Background(), apikeys.Hash(p.APIKey)); err != nil || id != b.User.ID {
		t.Fatalf("API key %q resolves to %q, %v", p.APIKey, id, err)
	}

	dup := e.do(request{method: "POST", path: "/api/register", body: map[string]string{"email": "NEW.seller@example.com", "password": testPassword}})
	if dup.status != http.StatusConflict || dup.message(t) != "An account with this email already exists" {
		t.Fatalf("duplicate = %d %s", dup.status, dup.body)
	}
}

func TestRegisterRefusesBadInput(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	for _, c := range []struct {
		name   string
		body   any
		header map[string]string
		status int
		fields map[string]string
	}{
		{"bad email", map[string]string{"email": "not-an-email", "password": testPassword}, nil, 400, map[string]string{"email": msgEmail}},
		{"no domain dot", map[string]string{"email": "a@localhost", "password": testPassword}, nil, 400, map[string]string{"email": msgEmail}},
		{"display name", map[string]string{"email": "Bob <bob@example.com>", "password": testPassword}, nil, 400, map[string]string{"email": msgEmail}},
		{"short password", map[string]string{"email": "a@example.com", "password": "1234567"}, nil, 400, map[string]string{"password": msgPassword}},
		// Issue 25, item 6: common, repeated, or the email itself.
		{"common password", map[string]string{"email": "a@example.com", "password": "password"}, nil, 400, map[string]string{"password": domain.MsgPasswordCommon}},
		{"common digits", map[string]string{"email": "a@example.com", "password": "12345678"}, nil, 400, map[string]string{"password": domain.MsgPasswordCommon}},
		{"repeated", map[string]string{"email": "a@example.com", "password": "aaaaaaaa"}, nil, 400, map[string]string{"password": domain.MsgPasswordCommon}},
		{"the email", map[string]string{"email": "Jane.Doe@example.com", "password": "jane.doe@example.com"}, nil, 400, map[string]string{"password": domain.MsgPasswordIsEmail}},
		// Issue 25, item 5: a look-alike name mixing scripts.
		{"mixed scripts", map[string]string{"email": "p\u0430ypal@example.com", "password": testPassword}, nil, 400, map[string]string{"email": domain.MsgMixedScriptEmail}},
		{"both", map[string]string{"email": "", "password": ""}, nil, 400, map[string]string{"email": msgEmail, "password": msgPassword}},
		{"confirmation differs", map[string]string{"email": "a@example.com", "password": testPassword, "confirmPassword": "something-else"}, nil, 400,
			map[string]string{"confirmPassword": msgPasswordsDiffer}},
		{"unknown field", map[string]string{"email": "a@example.com", "password": testPassword, "role": "admin"}, nil, 400, nil},
		{"not JSON", "email=a@example.com", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, nil},
		{"malformed", `{"email":`, nil, 400, nil},
		{"empty", "", nil, 400, nil},
		{"too big", `{"email":"` + strings.Repeat("a", maxBody) + `"}`, nil, 413, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := e.do(request{method: "POST", path: "/api/register", body: c.body, header: c.header})
			p := res.problem(t)
			if res.status != c.status || p.Message == "" {
				t.Fatalf("= %d %s", res.status, res.body)
			}
			for field, msg := range c.fields {
				if p.Errors[field] != msg {
					t.Errorf("errors[%s] = %q, want %q (%s)", field, p.Errors[field], msg, res.body)
				}
			}
			if c.fields != nil && p.Message != p.Errors[sortedKeys(p.Errors)[0]] {
				t.Errorf("message %q is not the first field's", p.Message)
			}
		})
	}
	if r := e.do(request{method: "POST", path: "/api/register", body: map[string]string{"email": "ok@example.com", "password": testPassword, "confirmPassword": testPassword}}); r.status != http.StatusCreated {
		t.Fatalf("matching confirmation = %d %s", r.status, r.body)
	}
}

func TestLoginAndLogout(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	acc := e.register("login@example.com")

	res := e.do(request{method: "POST", path: "/api/login", body: map[string]string{"email": "LOGIN@example.com", "password": testPassword}, cookie: acc.Cookie})
	var b authResponse
	res.json(t, &b)
	c := res.cookie()
	if res.status != http.StatusOK || b.Token == "" || b.User != (userResponse{ID: acc.ID, Email: "login@example.com"}) || c == nil || c.Value != b.Token {
		t.Fatalf("login = %d %s", res.status, res.body)
	}
	// The signed-out hint (session.go) goes with the session's arrival and
	// comes back with its end.
	hint := func(r response) *http.Cookie {
		for _, c := range (&http.Response{Header: r.header}).Cookies() {
			if c.Name == signedOutHint {
				return c
			}
		}
		return nil
	}
	if h := hint(res); h == nil || h.MaxAge >= 0 {
		t.Fatalf("login: signed-out hint %+v, want it removed", h)
	}
	// Signing in replaced the session the request came with.
	if r := e.do(request{method: "GET", path: "/api/user", cookie: acc.Cookie}); r.status != http.StatusUnauthorized {
		t.Fatalf("previous session = %d", r.status)
	}

	for _, creds := range []map[string]string{
		{"email": "login@example.com", "password": "wrong-password"},
		{"email": "nobody@example.com", "password": testPassword},
	} {
		r := e.do(request{method: "POST", path: "/api/login", body: creds})
		if r.status != http.StatusUnauthorized || r.message(t) != "Invalid email or password" || r.cookie() != nil {
			t.Fatalf("login %v = %d %s", creds, r.status, r.body)
		}
	}
	if r := e.do(request{method: "POST", path: "/api/login", body: map[string]string{"email": "x", "password": "short"}}); r.status != http.StatusBadRequest ||
		r.problem(t).Errors["email"] != msgEmail || r.problem(t).Errors["password"] != msgPassword {
		t.Fatalf("invalid login = %d %s", r.status, r.body)
	}

	out := e.do(request{method: "POST", path: "/api/logout", cookie: c})
	if out.status != http.StatusOK || out.message(t) != "Logged out" || out.cookie() == nil || out.cookie().MaxAge >= 0 {
		t.Fatalf("logout = %d %s %v", out.status, out.body, out.header)
	}
	if h := hint(out); h == nil || h.Value != "1" || h.HttpOnly {
		t.Fatalf("logout: signed-out hint %+v, want %s=1", h, signedOutHint)
	}
	if r := e.do(request{method: "GET", path: "/api/user", cookie: c}); r.status != http.StatusUnauthorized || r.message(t) == "" {
		t.Fatalf("user after logout = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "POST", path: "/api/logout"}); r.status != http.StatusOK {
		t.Fatalf("logout without a session = %d", r.status)
	}
	if r := e.do(request{method: "GET", path: "/api/user"}); r.status != http.StatusUnauthorized {
		t.Fatalf("user without a cookie = %d", r.status)
	}
}

func TestProductionCookieAndRoutes(t *testing.T) {
	t.Parallel()
	// The account routes alone, on the test database, configured for
	// production (the rest of production's start-up needs real keys).
	e := newTestEnv(t)
	d := e.deps.Deps
	d.Config.Env = config.Production
	router := chi.NewRouter()
	router.Route("/api", func(r chi.Router) { addAccountRoutes(r, d) })
	serve := func(method, path, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		router.ServeHTTP(rec, req)
		return rec
	}

	rec := serve("POST", "/api/register", `{"email":"prod@example.com","password":"`+testPassword+`"}`)
	c := response{header: rec.Header()}.cookie()
	if rec.Code != http.StatusCreated || c == nil || !c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
		t.Fatalf("register = %d, cookie %+v", rec.Code, c)
	}
	// Issue 25, item 7: the __Host- prefix (Secure, Path=/, no Domain), and
	// the answer that carries the session is not stored.
	if c.Name != "__Host-a2e_session" || c.Path != "/" || c.Domain != "" || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("production session cookie %+v, Cache-Control %q", c, rec.Header().Get("Cache-Control"))
	}
	withCookie := func(name string) int {
		req := httptest.NewRequest("GET", "/api/user", nil)
		req.AddCookie(&http.Cookie{Name: name, Value: c.Value})
		rec := httptest.NewRecorder()
		router.ServeHTTP(rec, req)
		return rec.Code
	}
	if got := withCookie("__Host-a2e_session"); got != http.StatusOK {
		t.Fatalf("user with the __Host- cookie = %d", got)
	}
	if got := withCookie("a2e_session"); got != http.StatusUnauthorized {
		t.Fatalf("user with an unprefixed cookie (one a subdomain could set) = %d", got)
	}
	if rec := serve("GET", "/api/dev/mail?to=prod@example.com", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("dev mailbox in production = %d", rec.Code)
	}
}

func TestSignInThrottledPerAccount(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	e.register("target@example.com")
	wrong := map[string]string{"email": "target@example.com", "password": "wrong-password"}
	for i := range accountAttempts {
		if r := e.do(request{method: "POST", path: "/api/login", body: wrong}); r.status != http.StatusUnauthorized {
			t.Fatalf("attempt %d = %d", i+1, r.status)
		}
	}
	// The right password is refused too while the account is throttled.
	r := e.do(request{method: "POST", path: "/api/login", body: map[string]string{"email": "TARGET@example.com", "password": testPassword}})
	if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" || r.message(t) == "" {
		t.Fatalf("attempt past the limit = %d %s %v", r.status, r.body, r.header)
	}
	// Another account is not affected.
	e.register("other@example.com")
	if r := e.do(request{method: "POST", path: "/api/login", body: map[string]string{"email": "other@example.com", "password": testPassword}}); r.status != http.StatusOK {
		t.Fatalf("other account = %d %s", r.status, r.body)
	}
}

func TestSignInThrottledPerIP(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	junk := map[string]string{"email": "x", "password": "y"}
	for i := range ipAttempts {
		if r := e.do(request{method: "POST", path: "/api/login", body: junk}); r.status != http.StatusBadRequest {
			t.Fatalf("attempt %d = %d", i+1, r.status)
		}
	}
	for _, path := range []string{"/api/login", "/api/register", "/api/auth/reset-password"} {
		r := e.do(request{method: "POST", path: path, body: junk})
		if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
			t.Fatalf("%s past the IP limit = %d %s", path, r.status, r.body)
		}
	}
}

func TestClientIPBehindTrustedProxy(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, func(c *config.Config) { c.TrustedProxies = []string{"127.0.0.0/8"} })
	junk := map[string]string{"email": "x", "password": "y"}
	from := func(ip string) map[string]string { return map[string]string{"X-Forwarded-For": ip} }
	for range ipAttempts {
		e.do(request{method: "POST", path: "/api/login", body: junk, header: from("203.0.113.7")})
	}
	if r := e.do(request{method: "POST", path: "/api/login", body: junk, header: from("203.0.113.7")}); r.status != http.StatusTooManyRequests {
		t.Fatalf("client past the limit = %d", r.status)
	}
	if r := e.do(request{method: "POST", path: "/api/login", body: junk, header: from("198.51.100.9")}); r.status != http.StatusBadRequest {
		t.Fatalf("another client behind the same proxy = %d", r.status)
	}
}

// Issue 25, item 5: one mailbox, one account, whichever way its domain is
// written; sign-in takes either spelling.
func TestOneMailboxOneAccountWhateverTheDomainSpelling(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	reg := func(email string) response {
		return e.do(request{method: "POST", path: "/api/register", body: map[string]string{"email": email, "password": testPassword}})
	}
	first := reg("v@bücher.example")
	var b authResponse
	first.json(t, &b)
	if first.status != http.StatusCreated || b.User.Email != "v@xn--bcher-kva.example" {
		t.Fatalf("register = %d %s", first.status, first.body)
	}
	for _, other := range []string{"v@xn--bcher-kva.example", "V@BÜCHER.example", "v@XN--BCHER-KVA.EXAMPLE"} {
		if r := reg(other); r.status != http.StatusConflict {
			t.Errorf("register %s after v@bücher.example = %d %s", other, r.status, r.body)
		}
	}
	for _, spelling := range []string{"v@bücher.example", "v@xn--bcher-kva.example"} {
		r := e.do(request{method: "POST", path: "/api/login", body: map[string]string{"email": spelling, "password": testPassword}})
		if r.status != http.StatusOK {
			t.Errorf("sign in as %s = %d %s", spelling, r.status, r.body)
		}
	}
}
