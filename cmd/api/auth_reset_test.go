package main

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/a2e-automation/app/domain"
)

const resetAnswer = "If an account exists for that email, we've sent instructions to reset your password."

var resetLink = regexp.MustCompile(`(\S+)/reset-password/complete\?token=(\S+)`)

// resetToken asks for a reset of email and returns the token mailed.
func (e *testEnv) resetToken(email string) string {
	e.t.Helper()
	if r := e.do(request{method: "POST", path: "/api/auth/reset-password", body: map[string]string{"email": email}}); r.status != http.StatusOK || r.message(e.t) != resetAnswer {
		e.t.Fatalf("reset request = %d %s", r.status, r.body)
	}
	e.resetsHandled()
	m := resetLink.FindStringSubmatch(e.mailTo(email)[0].Text)
	if m == nil || m[1] != e.deps.Config.BaseURL {
		e.t.Fatalf("no reset link for %s in %v", email, e.mailTo(email))
	}
	token, err := url.QueryUnescape(m[2])
	if err != nil {
		e.t.Fatal(err)
	}
	return token
}

func TestResetRequest(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	e.register("known@example.com")
	for _, email := range []string{"known@example.com", "unknown@example.com"} {
		r := e.do(request{method: "POST", path: "/api/auth/reset-password", body: map[string]string{"email": email}})
		if r.status != http.StatusOK || r.message(t) != resetAnswer {
			t.Fatalf("%s = %d %s", email, r.status, r.body)
		}
	}
	e.resetsHandled()
	if n := len(e.mailTo("unknown@example.com")); n != 0 {
		t.Fatalf("%d mails to an unknown address", n)
	}
	if n := len(e.mailTo("known@example.com")); n != 2 { // the verification code, then the reset link
		t.Fatalf("%d mails to the known address", n)
	}
	if r := e.do(request{method: "POST", path: "/api/auth/reset-password", body: map[string]string{"email": "nope"}}); r.status != http.StatusBadRequest || r.message(t) != msgEmail {
		t.Fatalf("bad email = %d %s", r.status, r.body)
	}
}

func TestResetComplete(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	acc := e.register("reset@example.com")
	other := e.do(request{method: "POST", path: "/api/login", body: map[string]string{"email": acc.Email, "password": testPassword}}).cookie()
	token := e.resetToken(acc.Email)
	complete := func(body map[string]string) (response, errorFields) {
		r := e.do(request{method: "POST", path: "/api/auth/reset-password/complete", body: body})
		return r, r.problem(t)
	}
	const newPassword = "Brand-new-pw!"

	for _, c := range []struct {
		body  map[string]string
		field string
		msg   string
	}{
		{map[string]string{"token": token, "newPassword": "Short!"}, "newPassword", msgNewPasswordLen},
		{map[string]string{"token": token, "newPassword": "no-uppercase!"}, "newPassword", msgNewPasswordUp},
		{map[string]string{"token": token, "newPassword": "NoSpecialChars"}, "newPassword", msgNewPasswordSym},
		{map[string]string{"token": token, "newPassword": "Aaaaaaaaa!"}, "newPassword", domain.MsgPasswordCommon},
		{map[string]string{"token": token, "newPassword": newPassword, "confirmPassword": "Other-pw!!!"}, "confirmPassword", msgPasswordsDiffer},
		{map[string]string{"token": "", "newPassword": newPassword}, "token", msgResetToken},
		{map[string]string{"newPassword": newPassword}, "token", msgResetToken},
	} {
		r, p := complete(c.body)
		if r.status != http.StatusBadRequest || p.Success == nil || *p.Success || p.Errors[c.field] != c.msg || p.Message != c.msg {
			t.Errorf("%v = %d %s", c.body, r.status, r.body)
		}
	}
	if r, p := complete(map[string]string{"token": "not-a-token", "newPassword": newPassword}); r.status != http.StatusBadRequest ||
		p.Success == nil || *p.Success || p.Message != msgResetToken {
		t.Fatalf("unknown token = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "POST", path: "/api/auth/reset-password/complete", body: "token=x", header: map[string]string{"Content-Type": "text/plain"}}); r.status != http.StatusUnsupportedMediaType ||
		r.problem(t).Success == nil {
		t.Fatalf("wrong content type = %d %s", r.status, r.body)
	}

	r := e.do(request{method: "POST", path: "/api/auth/reset-password/complete", body: map[string]string{"token": token, "newPassword": newPassword, "confirmPassword": newPassword}})
	var ok resetCompleteResponse
	r.json(t, &ok)
	if r.status != http.StatusOK || !ok.Success || ok.Message == "" {
		t.Fatalf("complete = %d %s", r.status, r.body)
	}
	if got := e.lastEvent(acc.ID); got != "PasswordChanged" {
		t.Fatalf("last event %s", got)
	}
	for _, c := range []*http.Cookie{acc.Cookie, other} {
		if r := e.do(request{method: "GET", path: "/api/user", cookie: c}); r.status != http.StatusUnauthorized {
			t.Fatalf("session after reset = %d", r.status)
		}
	}
	if r, p := complete(map[string]string{"token": token, "newPassword": "Another-pw!!"}); r.status != http.StatusBadRequest || *p.Success {
		t.Fatalf("token used twice = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "POST", path: "/api/login", body: map[string]string{"email": acc.Email, "password": testPassword}}); r.status != http.StatusUnauthorized {
		t.Fatalf("old password = %d", r.status)
	}
	if r := e.do(request{method: "POST", path: "/api/login", body: map[string]string{"email": acc.Email, "password": newPassword}}); r.status != http.StatusOK {
		t.Fatalf("new password = %d %s", r.status, r.body)
	}

	expired := e.resetToken(acc.Email)
	e.exec(`UPDATE password_reset_tokens SET expires_at = now() - interval '1 second'`)
	if r, p := complete(map[string]string{"token": expired, "newPassword": newPassword}); r.status != http.StatusBadRequest || *p.Success {
		t.Fatalf("expired token = %d %s", r.status, r.body)
	}
}
