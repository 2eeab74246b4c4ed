package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/pquerna/otp/totp"

	"github.com/a2e-automation/app/internal/auth"
)

// Every staff route, walked from the router itself, answers 403
// staff_mfa_required to a staff session that has not passed the second
// factor, and 404 to a seller and to no one, as before.
func TestStaffMFARequiredOnEveryStaffRoute(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	fresh := s.newStaffSession(s.staff)
	var routes int
	err := chi.Walk(s.handler.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if !strings.HasPrefix(route, "/api/staff/") {
			return nil
		}
		routes++
		path := strings.NewReplacer("{id}", s.customer.ID, "{name}", "profiles", "/*", "").Replace(route)
		req := request{method: method, path: path, cookie: fresh, header: map[string]string{"Idempotency-Key": "k1"},
			body: map[string]any{"credits": 5, "reason": "goodwill"}}
		if method == "GET" {
			req.body, req.header = nil, nil
		}
		if r := s.do(req); r.status != 403 || r.errorCode(t) != CodeStaffMFARequired {
			t.Errorf("%s %s before the second factor = %d %s", method, path, r.status, r.body)
		}
		for _, who := range []*http.Cookie{nil, s.customer.Cookie} {
			req.cookie = who
			if r := s.do(req); r.status != 404 {
				t.Errorf("%s %s as %v = %d, want 404", method, path, who, r.status)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if routes < 8 {
		t.Fatalf("walked %d staff routes", routes)
	}
	// Nothing was granted by the refused adjustment.
	if r := s.get("/api/staff/accounts/" + s.customer.ID); r.status != 200 || !bytes.Contains(r.body, []byte(`"creditsAvailable":0`)) {
		t.Fatalf("account after refused adjustments: %d %s", r.status, r.body)
	}
	// The MFA calls are hidden from sellers too.
	for _, p := range []string{"/api/auth/mfa/enroll", "/api/auth/mfa/verify"} {
		if r := s.do(request{method: "POST", path: p, cookie: s.customer.Cookie, body: map[string]any{"code": "123456"}}); r.status != 404 {
			t.Errorf("a seller's POST %s = %d", p, r.status)
		}
	}
}

// Enrolment and verification with a real TOTP code: the first code
// completes the enrolment, a code is accepted once, a wrong one is
// refused, a recovery code works once, and /api/user tells the webapp
// where the staff member stands.
func TestStaffMFAEnrolAndVerify(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	ctx := context.Background()
	who := e.seedAccount("totp@example.com")
	if err := e.deps.Auth.SetStaff(ctx, who.Email, true); err != nil {
		t.Fatal(err)
	}
	mfa := func(c *http.Cookie) mfaStatus {
		t.Helper()
		var u userResponse
		r := e.do(request{method: "GET", path: "/api/user", cookie: c})
		r.json(t, &u)
		if u.MFA == nil {
			t.Fatalf("user of a staff member without mfa: %s", r.body)
		}
		return *u.MFA
	}
	if got := mfa(who.Cookie); got != (mfaStatus{Required: true}) {
		t.Fatalf("before enrolment: %+v", got)
	}
	enrol := func(c *http.Cookie) (auth.Enrolment, response) {
		var en auth.Enrolment
		r := e.do(request{method: "POST", path: "/api/auth/mfa/enroll", cookie: c})
		r.json(t, &en)
		return en, r
	}
	verify := func(c *http.Cookie, code string) response {
		return e.do(request{method: "POST", path: "/api/auth/mfa/verify", cookie: c, body: map[string]any{"code": code}})
	}
	first, r := enrol(who.Cookie)
	if r.status != 201 || !strings.HasPrefix(first.OTPAuthURL, "otpauth://totp/") || !strings.Contains(first.OTPAuthURL, first.Secret) {
		t.Fatalf("enrol: %d %s", r.status, r.body)
	}
	// Enrolling again before a code verified replaces the secret.
	en, r := enrol(who.Cookie)
	if r.status != 201 || en.Secret == first.Secret {
		t.Fatalf("second enrol before verify: %d %s", r.status, r.body)
	}
	var sealed string
	if err := e.deps.Pool.QueryRow(ctx, `SELECT secret_enc FROM staff_mfa WHERE account_id = $1`, who.ID).Scan(&sealed); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sealed, en.Secret) {
		t.Fatal("the TOTP secret is stored in clear")
	}
	old, _ := totp.GenerateCode(first.Secret, time.Now())
	if r := verify(who.Cookie, old); r.status != 400 {
		t.Fatalf("the replaced secret's code = %d %s", r.status, r.body)
	}
	code, err := totp.GenerateCode(en.Secret, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	r = verify(who.Cookie, code)
	if r.status != 200 || !bytes.Contains(r.body, []byte(`"recoveryCodesLeft":10`)) || r.cookie() == nil || r.cookie().Value == who.Cookie.Value {
		t.Fatalf("verify: %d %s %v", r.status, r.body, r.cookie())
	}
	// Issue 31, item 10: the token the code came with has ended; the
	// console opens to the new one only.
	if r := e.do(request{method: "GET", path: "/api/staff/accounts?q=totp", cookie: who.Cookie}); r.status != 404 {
		t.Fatalf("the pre-MFA token after verify: %d %s", r.status, r.body)
	}
	who.Cookie = r.cookie()
	if got := mfa(who.Cookie); got != (mfaStatus{Required: true, Enrolled: true, Passed: true}) {
		t.Fatalf("after verify: %+v", got)
	}
	if r := e.do(request{method: "GET", path: "/api/staff/accounts?q=totp", cookie: who.Cookie}); r.status != 200 {
		t.Fatalf("console after verify: %d %s", r.status, r.body)
	}
	if _, r := enrol(who.Cookie); r.status != 409 {
		t.Fatalf("enrol once enrolled = %d %s", r.status, r.body)
	}

	// A new session: enrolled, not passed; the same code is not accepted
	// twice; a recovery code is, once.
	second := e.newStaffSession(who)
	if got := mfa(second); got != (mfaStatus{Required: true, Enrolled: true}) {
		t.Fatalf("new session: %+v", got)
	}
	if r := verify(second, code); r.status != 400 {
		t.Fatalf("a replayed TOTP code = %d %s", r.status, r.body)
	}
	recovery := strings.ToUpper(en.RecoveryCodes[3]) // typed in capitals: still the code
	if r := verify(second, recovery); r.status != 200 || !bytes.Contains(r.body, []byte(`"recoveryCodesLeft":9`)) || r.cookie() == nil {
		t.Fatalf("recovery code: %d %s", r.status, r.body)
	}
	third := e.newStaffSession(who)
	if r := verify(third, en.RecoveryCodes[3]); r.status != 400 {
		t.Fatalf("a recovery code used twice = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "GET", path: "/api/staff/accounts?q=totp", cookie: third}); r.status != 403 || r.errorCode(t) != CodeStaffMFARequired {
		t.Fatalf("console after refused codes: %d %s", r.status, r.body)
	}
}

// Codes are throttled per staff member like sign-ins: past the burst even
// the right code gets 429 with Retry-After.
func TestStaffMFAThrottled(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	who := e.seedAccount("guess@example.com")
	if err := e.deps.Auth.SetStaff(context.Background(), who.Email, true); err != nil {
		t.Fatal(err)
	}
	var en auth.Enrolment
	e.do(request{method: "POST", path: "/api/auth/mfa/enroll", cookie: who.Cookie}).json(t, &en)
	code, _ := totp.GenerateCode(en.Secret, time.Now())
	wrong := "000000"
	if wrong == code {
		wrong = "111111"
	}
	for i := range limitMFA.Rate {
		if r := e.do(request{method: "POST", path: "/api/auth/mfa/verify", cookie: who.Cookie, body: map[string]any{"code": wrong}}); r.status != 400 {
			t.Fatalf("wrong code %d = %d %s", i, r.status, r.body)
		}
	}
	r := e.do(request{method: "POST", path: "/api/auth/mfa/verify", cookie: who.Cookie, body: map[string]any{"code": code}})
	if r.status != 429 || r.header.Get("Retry-After") == "" {
		t.Fatalf("past the throttle = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "POST", path: "/api/auth/mfa/verify", cookie: who.Cookie, body: map[string]any{"code": "12"}}); r.status != 400 {
		t.Fatalf("a malformed code = %d", r.status)
	}
}

// bin/api staff reset-mfa EMAIL: the second factor is gone, the staff
// member's sessions end, and the next sign-in enrols again.
func TestStaffResetMFACommand(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	env := map[string]string{"APP_ENV": "development", "DATABASE_URL": s.deps.DatabaseURL}
	getenv := func(k string) string { return env[k] }
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"api", "staff", "reset-mfa", "Support@example.com"}, getenv, &out, &errOut); err != nil {
		t.Fatal(err, errOut.String())
	}
	if !strings.Contains(out.String(), "Support@example.com has no second factor") {
		t.Fatalf("output: %q", out.String())
	}
	if r := s.get("/api/staff/accounts?q=seller"); r.status != 404 {
		t.Fatalf("the old session after a reset = %d %s", r.status, r.body)
	}
	again := s.newStaffSession(s.staff)
	if r := s.do(request{method: "GET", path: "/api/staff/accounts?q=seller", cookie: again}); r.status != 403 {
		t.Fatalf("a new session after a reset = %d", r.status)
	}
	s.staff.Cookie = again
	s.passMFA(s.staff) // enrols afresh
	if r := s.get("/api/staff/accounts?q=seller"); r.status != 200 {
		t.Fatalf("after enrolling again = %d %s", r.status, r.body)
	}
	if err := run(context.Background(), []string{"api", "staff", "reset-mfa", "nobody@example.com"}, getenv, &out, &errOut); err == nil || !strings.Contains(err.Error(), "no account") {
		t.Fatalf("unknown email: %v", err)
	}
}

// The console's own error codes are listed in docs/auth.md, as the /v1
// codes are in the desktop API's guide.
func TestConsoleErrorCodesAreDocumented(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "auth.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range consoleErrorCodes {
		if !strings.Contains(string(doc), "`"+code+"`") {
			t.Errorf("docs/auth.md does not name %s", code)
		}
		if slices.Contains(errorCodes, code) {
			t.Errorf("%s is in both lists", code)
		}
	}
}

// The sign-in answer tells the webapp where a staff member goes next:
// enrol the first time, a code once enrolled; sellers carry no mfa.
func TestStaffSignInAnswerCarriesMFA(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	acc := e.register("signin-staff@example.com")
	login := func() authResponse {
		t.Helper()
		var b authResponse
		r := e.do(request{method: "POST", path: "/api/login", body: map[string]string{"email": acc.Email, "password": testPassword}})
		r.json(t, &b)
		if r.status != 200 {
			t.Fatalf("login = %d %s", r.status, r.body)
		}
		return b
	}
	if b := login(); b.User.MFA != nil {
		t.Fatalf("a seller's sign-in carries mfa: %+v", b.User.MFA)
	}
	if err := e.deps.Auth.SetStaff(context.Background(), acc.Email, true); err != nil {
		t.Fatal(err)
	}
	b := login()
	if b.User.MFA == nil || *b.User.MFA != (mfaStatus{Required: true}) {
		t.Fatalf("staff before enrolment: %+v", b.User.MFA)
	}
	e.passMFA(seeded{ID: acc.ID, Email: acc.Email, Cookie: &http.Cookie{Name: sessionCookieName(e.deps.Deps), Value: b.Token}})
	if b := login(); b.User.MFA == nil || *b.User.MFA != (mfaStatus{Required: true, Enrolled: true}) {
		t.Fatalf("staff after enrolment, a new session: %+v", b.User.MFA)
	}
}

// Issue 31, item 10: `staff remove` signs the staff member out everywhere,
// and `staff add` again needs a new code: no session that passed the second
// factor before comes back.
func TestStaffRemoveThenAddNeedsTheSecondFactorAgain(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	env := map[string]string{"APP_ENV": "development", "DATABASE_URL": s.deps.DatabaseURL}
	getenv := func(k string) string { return env[k] }
	passed := *s.staff.Cookie
	notYet := s.newStaffSession(s.staff)
	var out, errOut bytes.Buffer
	for _, step := range []string{"remove", "add"} {
		if err := run(context.Background(), []string{"api", "staff", step, s.staff.Email}, getenv, &out, &errOut); err != nil {
			t.Fatal(step, err, errOut.String())
		}
	}
	for name, c := range map[string]*http.Cookie{"the session that passed": &passed, "a session that had not": notYet} {
		if r := s.do(request{method: "GET", path: "/api/staff/accounts?q=seller", cookie: c}); r.status != 404 {
			t.Fatalf("%s, after remove and add = %d %s", name, r.status, r.body)
		}
		if r := s.do(request{method: "GET", path: "/api/user", cookie: c}); r.status != 401 {
			t.Fatalf("%s is still signed in: %d %s", name, r.status, r.body)
		}
	}
	// Made staff while signed in: the open session has to pass it anew.
	fresh := s.newStaffSession(s.staff)
	if err := run(context.Background(), []string{"api", "staff", "remove", s.staff.Email}, getenv, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	seller := s.newStaffSession(s.staff)
	if _, err := s.deps.Pool.Exec(context.Background(), `UPDATE sessions SET mfa_passed_at = now() WHERE account_id = $1`, s.staff.ID); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), []string{"api", "staff", "add", s.staff.Email}, getenv, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if r := s.do(request{method: "GET", path: "/api/staff/accounts?q=seller", cookie: seller}); r.status != 403 || r.errorCode(t) != CodeStaffMFARequired {
		t.Fatalf("a session from before staff add = %d %s", r.status, r.body)
	}
	if r := s.do(request{method: "GET", path: "/api/user", cookie: fresh}); r.status != 401 {
		t.Fatalf("a session from before staff remove = %d", r.status)
	}
}
