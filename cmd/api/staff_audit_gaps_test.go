package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/staffaudit"
	"github.com/a2e-automation/app/internal/testing/smtptest"
)

// Issue 31, item 11: a refused staff action leaves a line with its
// outcome and why, against the account it was about.
func TestStaffRefusedActionsAreAudited(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	refunds := "/api/staff/accounts/" + s.customer.ID + "/refunds"
	for _, c := range []struct {
		what, path, key string
		body            map[string]any
		status          int
		account, action string
		detail          string
	}{
		{"one's own account", "/api/staff/accounts/" + s.staff.ID + "/refunds", "own", map[string]any{"paymentId": "pi_x", "reason": "Mine"},
			403, s.staff.ID, staffaudit.ActionRefund, "403 staff_own_account: "},
		{"more credits than the balance", "/api/staff/accounts/" + s.customer.ID + "/adjustments", "debit", map[string]any{"credits": -5, "reason": "Too much"},
			402, s.customer.ID, staffaudit.ActionAdjustment, "402 "},
		{"an unknown payment", refunds, "unknown", map[string]any{"paymentId": "pi_unknown", "reason": "Goodwill"},
			404, s.customer.ID, staffaudit.ActionRefund, "404 not_found: This account has no paid payment pi_unknown"},
		{"nothing to cancel", "/api/staff/accounts/" + s.customer.ID + "/subscription/cancel", "", map[string]any{"atPeriodEnd": false, "reason": "Stop it"},
			409, s.customer.ID, staffaudit.ActionCancellation, "409 conflict: No active subscription to cancel"},
	} {
		if r := s.staffPost(c.path, c.key, c.body); r.status != c.status {
			t.Fatalf("%s = %d %s", c.what, r.status, r.body)
		}
		lines := s.refusedOf(c.account, c.action)
		if len(lines) != 1 || !strings.HasPrefix(lines[0].Detail, c.detail) || lines[0].ActorID != s.staff.ID || lines[0].RequestID == "" {
			t.Fatalf("%s: refused lines %+v", c.what, lines)
		}
		if done := s.auditOf(c.account, c.action); len(done) != 0 {
			t.Fatalf("%s: done lines %+v", c.what, done)
		}
	}
	// An account id of no account, and a support request that does not exist.
	nobody := uuid.NewString()
	if r := s.staffPost("/api/staff/accounts/"+nobody+"/adjustments", "nobody", map[string]any{"credits": 5, "reason": "Who?"}); r.status != 404 {
		t.Fatalf("adjustment of nobody = %d %s", r.status, r.body)
	}
	if lines := s.refusedOf(nobody, staffaudit.ActionAdjustment); len(lines) != 1 || !strings.HasPrefix(lines[0].Detail, "404") {
		t.Fatalf("adjustment of nobody: %+v", lines)
	}
	if r := s.staffPost("/api/staff/support-requests/"+nobody+"/replies", "", map[string]any{"message": "Hello"}); r.status != 404 {
		t.Fatalf("reply to nothing = %d", r.status)
	}
	p, _ := s.audit("actor=" + s.staff.ID)
	found := false
	for _, e := range p.Entries {
		if e.Action == staffaudit.ActionSupportReply && e.Outcome == staffaudit.OutcomeRefused && strings.Contains(e.Detail, nobody) && e.AccountID == nil {
			found = true
		}
	}
	if !found {
		t.Fatalf("no refused reply line: %+v", p.Entries)
	}
}

// Issue 31, item 11: reading the trail is audited, against the account
// asked about; an X-Request-ID of the client's is kept apart and never
// stands for the request.
func TestStaffAuditReadsAndClientRequestIDs(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	r := s.do(request{method: "GET", path: "/api/staff/audit?accountId=" + s.customer.ID, cookie: s.staff.Cookie,
		header: map[string]string{"X-Request-ID": "chosen-by-client"}})
	var p staffaudit.Page
	r.json(t, &p)
	server := r.header.Get("X-Request-ID")
	if r.status != 200 || server == "" || server == "chosen-by-client" {
		t.Fatalf("audit read = %d %v", r.status, r.header)
	}
	if len(p.Entries) != 1 {
		t.Fatalf("trail of the account = %+v", p.Entries)
	}
	e := p.Entries[0]
	if e.Action != staffaudit.ActionAuditRead || e.AccountID == nil || *e.AccountID != s.customer.ID || e.RequestID != server ||
		e.ClientRequestID != "chosen-by-client" || !strings.Contains(e.Detail, "accountId="+s.customer.ID) {
		t.Fatalf("the read's own line: %+v", e)
	}
	// The same for a read of an account, and in the error body.
	r = s.do(request{method: "GET", path: "/api/staff/accounts/" + s.customer.ID, cookie: s.staff.Cookie,
		header: map[string]string{"X-Request-ID": "chosen-again"}})
	if view := s.auditOf(s.customer.ID, staffaudit.ActionView); len(view) != 1 || view[0].RequestID != r.header.Get("X-Request-ID") ||
		view[0].ClientRequestID != "chosen-again" {
		t.Fatalf("view line %+v, answer %v", view, r.header)
	}
	r = s.do(request{method: "GET", path: "/api/staff/audit?limit=0", cookie: s.staff.Cookie, header: map[string]string{"X-Request-ID": "x-1"}})
	var body errorFields
	r.json(t, &body)
	if r.status != 400 || strings.Contains(string(r.body), "x-1") || r.header.Get("X-Request-ID") == "x-1" {
		t.Fatalf("error answer = %d %s %v", r.status, r.body, r.header)
	}
}

// Issue 31, item 11: each account a search or the inbox shows is recorded
// against it.
func TestStaffSearchAndInboxRecordEachAccountShown(t *testing.T) {
	t.Parallel()
	smtp := smtptest.Start(t)
	s := newStaffEnv(t, func(c *config.Config) { c.SMTPURL, c.SupportEmail = smtp.URL(), "help@a2e.example" })
	s.command(func(a *domain.Account, now time.Time) error { return a.VerifyEmail(now) })
	other := s.seedVerified("other-seller@example.com")
	for _, who := range []seeded{s.customer, other, s.customer} {
		if r := s.post(who, "/api/support/requests", map[string]string{"subject": "Help", "message": "Please look at my account, something is off."}); r.status != http.StatusCreated {
			t.Fatalf("support request = %d %s", r.status, r.body)
		}
	}
	if r := s.get("/api/staff/accounts?q=seller"); r.status != 200 {
		t.Fatalf("search = %d", r.status)
	}
	for _, id := range []string{s.customer.ID, other.ID} {
		if lines := s.auditOf(id, staffaudit.ActionSearchResult); len(lines) != 1 || lines[0].Detail != "q=seller" {
			t.Fatalf("search result lines of %s: %+v", id, lines)
		}
	}
	if r := s.get("/api/staff/support-requests"); r.status != 200 {
		t.Fatalf("inbox = %d", r.status)
	}
	mine := s.auditOf(s.customer.ID, staffaudit.ActionInboxListed)
	if len(mine) != 1 || strings.Count(mine[0].Detail, "request ") != 2 {
		t.Fatalf("inbox lines of the customer (two requests, one line): %+v", mine)
	}
	if lines := s.auditOf(other.ID, staffaudit.ActionInboxListed); len(lines) != 1 {
		t.Fatalf("inbox lines of the other seller: %+v", lines)
	}
}
