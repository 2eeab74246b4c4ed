package main

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/a2e-automation/app/internal/auth"
)

func TestVerifyEmail(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	acc := e.register("verify@example.com")
	code := e.code(acc.Email)
	verify := func(code string) response {
		return e.do(request{method: "POST", path: "/api/auth/verify-email", body: map[string]string{"code": code}, cookie: acc.Cookie})
	}

	for _, bad := range []string{"", "12345", "1234567", "12a456"} {
		if r := verify(bad); r.status != http.StatusBadRequest || r.message(t) != msgCode {
			t.Fatalf("code %q = %d %s", bad, r.status, r.body)
		}
	}
	if r := verify(wrongCode(code)); r.status != http.StatusBadRequest || r.message(t) != "Invalid verification code" {
		t.Fatalf("wrong code = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "POST", path: "/api/auth/verify-email", body: map[string]string{"code": code}}); r.status != http.StatusUnauthorized {
		t.Fatalf("without a session = %d", r.status)
	}

	r := verify(code)
	var b verifyResponse
	r.json(t, &b)
	if r.status != http.StatusOK || !b.User.IsVerified || b.User.ID != acc.ID || b.Message == "" {
		t.Fatalf("right code = %d %s", r.status, r.body)
	}
	if got := e.lastEvent(acc.ID); got != "EmailVerified" {
		t.Fatalf("last event %s", got)
	}
	var u userResponse
	e.do(request{method: "GET", path: "/api/user", cookie: acc.Cookie}).json(t, &u)
	if !u.IsVerified {
		t.Fatal("user not verified after verification")
	}
	if r := verify(code); r.status != http.StatusConflict {
		t.Fatalf("verify again = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "POST", path: "/api/auth/resend-verification", cookie: acc.Cookie}); r.status != http.StatusConflict {
		t.Fatalf("resend when verified = %d %s", r.status, r.body)
	}
}

func wrongCode(code string) string {
	if code == "000000" {
		return "000001"
	}
	return "000000"
}

func TestVerifyEmailExpiredAndTooManyTries(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	acc := e.register("tries@example.com")
	code := e.code(acc.Email)
	verify := func(code string) response {
		return e.do(request{method: "POST", path: "/api/auth/verify-email", body: map[string]string{"code": code}, cookie: acc.Cookie})
	}

	e.exec(`UPDATE verification_codes SET expires_at = now() - interval '1 second'`)
	if r := verify(code); r.status != http.StatusBadRequest || r.message(t) != "Verification code has expired. Please request a new one." {
		t.Fatalf("expired = %d %s", r.status, r.body)
	}

	e.exec(`UPDATE verification_codes SET sent_at = now() - interval '2 minutes'`)
	if r := e.do(request{method: "POST", path: "/api/auth/resend-verification", cookie: acc.Cookie}); r.status != http.StatusOK {
		t.Fatalf("resend = %d %s", r.status, r.body)
	}
	code = e.code(acc.Email)
	for range auth.MaxCodeAttempts - 1 { // the expired try counted against the old code, not this one
		verify(wrongCode(code))
	}
	if r := verify(wrongCode(code)); r.message(t) != "Invalid verification code" {
		t.Fatalf("5th wrong try = %d %s", r.status, r.body)
	}
	if r := verify(code); r.status != http.StatusBadRequest || r.message(t) != "Too many attempts. Please request a new code." {
		t.Fatalf("right code after 5 wrong tries = %d %s", r.status, r.body)
	}
}

func TestResendVerification(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	acc := e.register("resend@example.com")
	first := e.code(acc.Email)
	resend := func() response {
		return e.do(request{method: "POST", path: "/api/auth/resend-verification", cookie: acc.Cookie})
	}

	r := resend()
	secs, _ := strconv.Atoi(r.header.Get("Retry-After"))
	if r.status != http.StatusTooManyRequests || secs < 1 || secs > 60 || r.message(t) == "" {
		t.Fatalf("resend within a minute = %d %s Retry-After %q", r.status, r.body, r.header.Get("Retry-After"))
	}
	e.exec(`UPDATE verification_codes SET sent_at = now() - interval '61 seconds'`)
	r = resend()
	if r.status != http.StatusOK || r.message(t) != msgCodeOnItsWay {
		t.Fatalf("resend = %d %s", r.status, r.body)
	}
	if n := len(e.mailTo(acc.Email)); n != 2 {
		t.Fatalf("%d mails", n)
	}
	second := e.code(acc.Email)
	if second != first {
		if r := e.do(request{method: "POST", path: "/api/auth/verify-email", body: map[string]string{"code": first}, cookie: acc.Cookie}); r.status != http.StatusBadRequest {
			t.Fatalf("replaced code = %d %s", r.status, r.body)
		}
	}
	if r := e.do(request{method: "POST", path: "/api/auth/verify-email", body: map[string]string{"code": second}, cookie: acc.Cookie}); r.status != http.StatusOK {
		t.Fatalf("new code = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "POST", path: "/api/auth/resend-verification"}); r.status != http.StatusUnauthorized {
		t.Fatalf("without a session = %d", r.status)
	}
}
