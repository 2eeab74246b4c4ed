package main

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/config"
)

func TestSupportRequest(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, func(c *config.Config) { c.SupportEmail = "help@a2e.example" })
	s := e.seedVerified("asker@example.com")
	send := func(body any) response {
		return e.do(request{method: "POST", path: "/api/support/requests", body: body, cookie: s.Cookie})
	}

	r := send(map[string]string{"subject": "  Sync stopped  ", "message": "My inventory sync stopped yesterday."})
	if r.status != http.StatusCreated || r.message(t) != "Support request submitted" {
		t.Fatalf("submit = %d %s", r.status, r.body)
	}
	var subject, message, email string
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT subject, message, email FROM support_requests WHERE account_id = $1`, s.ID).
		Scan(&subject, &message, &email); err != nil || subject != "Sync stopped" || message != "My inventory sync stopped yesterday." || email != s.Email {
		t.Fatalf("stored %q %q %q, %v", subject, message, email, err)
	}
	mails := e.mailTo("help@a2e.example")
	if len(mails) != 1 || mails[0].Subject != "Support request: Sync stopped" || !strings.Contains(mails[0].Text, "My inventory sync stopped yesterday.") ||
		!strings.Contains(mails[0].Text, s.Email) {
		t.Fatalf("support mail %+v", mails)
	}

	for _, c := range []struct {
		body        map[string]string
		field, want string
	}{
		{map[string]string{"subject": " a ", "message": "Long enough message."}, "subject", "Subject is required"},
		{map[string]string{"subject": "Help", "message": "  too short "}, "message", "Please provide more details"},
		{map[string]string{"subject": strings.Repeat("s", maxSubject+1), "message": "Long enough message."}, "subject", "Subject must be at most 200 characters"},
		{map[string]string{"message": "Long enough message."}, "subject", "Subject is required"},
	} {
		r := send(c.body)
		if r.status != http.StatusBadRequest || r.problem(t).Errors[c.field] != c.want {
			t.Errorf("%v = %d %s", c.body, r.status, r.body)
		}
	}
	if r := send(map[string]string{"subject": "Help", "message": "Long enough message.", "priority": "high"}); r.status != http.StatusBadRequest {
		t.Fatalf("unknown field = %d", r.status)
	}
	if r := e.do(request{method: "POST", path: "/api/support/requests", body: map[string]string{"subject": "Help", "message": "Long enough message."}}); r.status != http.StatusUnauthorized {
		t.Fatalf("without a session = %d", r.status)
	}
}

// TestSupportRequestsNeedAVerifiedAddressAndAreLimited (issue 25, item 3):
// an unverified account sends nothing (its Reply-To would be an address
// nobody proved); a verified one sends five an hour, then gets 429
// rate_limited with Retry-After, and no more mail reaches support.
func TestSupportRequestsNeedAVerifiedAddressAndAreLimited(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, func(c *config.Config) { c.SupportEmail = "help@a2e.example" })
	body := map[string]string{"subject": "Sync stopped", "message": "My inventory sync stopped yesterday."}

	unverified := e.seedAccount("unproven-asker@example.com")
	r := e.post(unverified, "/api/support/requests", body)
	if r.status != http.StatusForbidden || r.message(t) != "Please verify your email address before contacting support." {
		t.Fatalf("unverified = %d %s", r.status, r.body)
	}

	s := e.seedVerified("chatty@example.com")
	for i := range command.SupportLimits[0].Max {
		if r := e.post(s, "/api/support/requests", body); r.status != http.StatusCreated {
			t.Fatalf("request %d = %d %s", i, r.status, r.body)
		}
	}
	r = e.post(s, "/api/support/requests", body)
	secs, _ := strconv.Atoi(r.header.Get("Retry-After"))
	if r.status != http.StatusTooManyRequests || r.errorCode(t) != CodeRateLimited || secs < 3000 || secs > 3600 {
		t.Fatalf("over the limit = %d %s (Retry-After %q)", r.status, r.body, r.header.Get("Retry-After"))
	}
	var stored int
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT count(*) FROM support_requests`).Scan(&stored); err != nil || stored != command.SupportLimits[0].Max {
		t.Fatalf("%d requests stored (%v); want %d", stored, err, command.SupportLimits[0].Max)
	}
	if mails := e.mailTo("help@a2e.example"); len(mails) != command.SupportLimits[0].Max {
		t.Fatalf("%d mails to support; want %d", len(mails), command.SupportLimits[0].Max)
	}
}
