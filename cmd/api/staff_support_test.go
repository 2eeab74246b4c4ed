package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/staff"
	"github.com/a2e-automation/app/internal/staffaudit"
	"github.com/a2e-automation/app/internal/testing/smtptest"
)

// TestSupportInbox: staff list the requests newest first with the seller's
// account beside each, filter by status and page by cursor, read one with
// its thread, reply (the reply reaches the seller at a real SMTP server and
// the request is answered) and close it; the seller sees their own
// requests and the replies, and gets 404 from the staff routes. Every
// listing, read, reply and status change is in the audit trail.
func TestSupportInbox(t *testing.T) {
	t.Parallel()
	smtp := smtptest.Start(t)
	s := newStaffEnv(t, func(c *config.Config) { c.SMTPURL, c.SupportEmail = smtp.URL(), "help@a2e.example" })
	s.command(func(a *domain.Account, now time.Time) error { return a.VerifyEmail(now) })
	other := s.seedVerified("other-asker@example.com")
	ask := func(who seeded, subject string) {
		t.Helper()
		r := s.post(who, "/api/support/requests", map[string]string{"subject": subject, "message": "Please look at my account, something is off."})
		if r.status != http.StatusCreated {
			t.Fatalf("request %q = %d %s", subject, r.status, r.body)
		}
	}
	ask(s.customer, "Credits missing")
	ask(other, "Another question")
	ask(s.customer, "Sync stopped")

	var page staff.SupportInboxPage
	r := s.get("/api/staff/support-requests")
	r.json(t, &page)
	if r.status != 200 || len(page.Requests) != 3 || page.Requests[0].Subject != "Sync stopped" || page.Requests[2].Subject != "Credits missing" {
		t.Fatalf("inbox = %d %s", r.status, r.body)
	}
	first := page.Requests[0]
	if first.Status != "open" || first.Account == nil || first.Account.ID != s.customer.ID || first.Account.SubscriptionStatus != "inactive" {
		t.Fatalf("first request = %+v", first)
	}
	// Pages of two, by cursor.
	r = s.get("/api/staff/support-requests?status=open&limit=2")
	r.json(t, &page)
	if len(page.Requests) != 2 || page.NextCursor == "" {
		t.Fatalf("first page = %s", r.body)
	}
	r = s.get("/api/staff/support-requests?status=open&limit=2&cursor=" + page.NextCursor)
	page = staff.SupportInboxPage{}
	r.json(t, &page)
	if len(page.Requests) != 1 || page.Requests[0].Subject != "Credits missing" || page.NextCursor != "" {
		t.Fatalf("second page = %s", r.body)
	}
	for path, want := range map[string]string{
		"/api/staff/support-requests?status=pending": `The status must be "open", "answered" or "closed"`,
		"/api/staff/support-requests?cursor=zzz":     "Invalid cursor",
		"/api/staff/support-requests?limit=0":        "limit must be a whole number from 1 to 100",
	} {
		if r := s.get(path); r.status != 400 || r.message(t) != want || r.errorCode(t) != CodeInvalidRequest {
			t.Errorf("GET %s = %d %s", path, r.status, r.body)
		}
	}
	// The listings are audited, with no account and the query as detail.
	all, _ := s.audit("limit=200")
	var inbox []string
	for _, e := range all.Entries {
		if e.Action == staffaudit.ActionSupportInbox {
			if e.AccountID != nil || e.ActorID != s.staff.ID {
				t.Fatalf("inbox audit line = %+v", e)
			}
			inbox = append(inbox, e.Detail)
		}
	}
	if len(inbox) != 6 || inbox[len(inbox)-1] != "" || inbox[len(inbox)-2] != "limit=2&status=open" {
		t.Fatalf("inbox audit details = %q", inbox)
	}
	for _, id := range []string{"not-a-uuid", "0f0e3c1e-98b6-4c5e-9f55-1d2b8f3e4a11"} {
		if r := s.get("/api/staff/support-requests/" + id); r.status != 404 || r.message(t) != "Support request not found" {
			t.Errorf("GET unknown %s = %d %s", id, r.status, r.body)
		}
		if r := s.post(s.staff, "/api/staff/support-requests/"+id+"/replies", map[string]string{"message": "Hello"}); r.status != 404 {
			t.Errorf("reply to unknown %s = %d %s", id, r.status, r.body)
		}
		if r := s.post(s.staff, "/api/staff/support-requests/"+id+"/status", map[string]string{"status": "closed"}); r.status != 404 {
			t.Errorf("status of unknown %s = %d %s", id, r.status, r.body)
		}
	}

	replies := "/api/staff/support-requests/" + first.ID + "/replies"
	for _, c := range []struct{ body, want string }{
		{"   ", "A reply message is required"},
		{strings.Repeat("x", maxReply+1), "The reply must be at most 5000 characters"},
	} {
		if r := s.post(s.staff, replies, map[string]string{"message": c.body}); r.status != 400 || r.problem(t).Errors["message"] != c.want {
			t.Errorf("reply %.10q = %d %s", c.body, r.status, r.body)
		}
	}
	s.checkAudit(s.customer.ID, staffaudit.ActionSupportReply, 0) // refused replies and unknown requests record nothing
	const answer = "We found the missing credits and restored them."
	var sent struct{ ID string }
	r = s.post(s.staff, replies, map[string]string{"message": "  " + answer + "\n"})
	r.json(t, &sent)
	if r.status != http.StatusCreated {
		t.Fatalf("reply = %d %s", r.status, r.body)
	}
	s.checkAudit(s.customer.ID, staffaudit.ActionSupportReply, 1, "request "+first.ID+", reply "+sent.ID)
	s.checkAudit(s.customer.ID, staffaudit.ActionSupportRequest, 0) // the unknown requests showed nothing
	var thread staff.SupportThread
	r = s.get("/api/staff/support-requests/" + first.ID)
	r.json(t, &thread)
	if r.status != 200 || thread.Status != "answered" || len(thread.Thread) != 1 || thread.Thread[0].Message != answer ||
		thread.Thread[0].Author != s.staff.Email || thread.Account == nil || thread.Account.Email != s.customer.Email {
		t.Fatalf("thread = %d %s", r.status, r.body)
	}
	s.checkAudit(s.customer.ID, staffaudit.ActionSupportRequest, 1, "request "+first.ID)
	r = s.get("/api/staff/support-requests?status=answered")
	page = staff.SupportInboxPage{}
	r.json(t, &page)
	if len(page.Requests) != 1 || page.Requests[0].ID != first.ID || page.Requests[0].Replies != 1 {
		t.Fatalf("answered = %s", r.body)
	}

	// The reply reaches the seller, from the outbox, at a real SMTP server.
	// (smtp.To also matches the Reply-To of the requests' own mails.)
	toSeller := func() (out []string) {
		for _, m := range smtp.To(s.customer.Email) {
			if strings.Contains(m, "\r\nTo: <"+s.customer.Email+">") {
				out = append(out, m)
			}
		}
		return out
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(toSeller()) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	got := toSeller()
	if len(got) != 1 || !strings.Contains(got[0], "Subject: Re: Sync stopped") || !strings.Contains(got[0], answer) ||
		!strings.Contains(got[0], "help@a2e.example") {
		t.Fatalf("mail to the seller = %q", got)
	}

	status := "/api/staff/support-requests/" + first.ID + "/status"
	if r := s.post(s.staff, status, map[string]string{"status": "done"}); r.status != 400 || r.problem(t).Errors["status"] == "" {
		t.Errorf("unknown status = %d %s", r.status, r.body)
	}
	if r := s.post(s.staff, status, map[string]string{"status": "closed"}); r.status != 200 {
		t.Fatalf("close = %d %s", r.status, r.body)
	}
	s.checkAudit(s.customer.ID, staffaudit.ActionSupportStatus, 1, "request "+first.ID+": closed")

	// The seller sees their own requests and the replies, not others'.
	var mine struct {
		Requests []struct {
			ID, Subject, Status string
			Replies             []struct{ Message string }
		}
	}
	r = s.do(request{method: "GET", path: "/api/support/requests", cookie: s.customer.Cookie})
	r.json(t, &mine)
	if r.status != 200 || len(mine.Requests) != 2 || mine.Requests[0].ID != first.ID || mine.Requests[0].Status != "closed" ||
		len(mine.Requests[0].Replies) != 1 || mine.Requests[0].Replies[0].Message != answer || len(mine.Requests[1].Replies) != 0 {
		t.Fatalf("seller's requests = %d %s", r.status, r.body)
	}
	if strings.Contains(string(r.body), s.staff.Email) {
		t.Errorf("the seller sees the staff member's address: %s", r.body)
	}
	// A seller calling the staff routes gets 404, as for any unknown route.
	for _, req := range []request{
		{method: "GET", path: "/api/staff/support-requests"},
		{method: "GET", path: "/api/staff/support-requests/" + first.ID},
		{method: "POST", path: replies, body: map[string]string{"message": "Hi"}},
		{method: "POST", path: status, body: map[string]string{"status": "open"}},
	} {
		req.cookie = s.customer.Cookie
		if r := s.do(req); r.status != 404 {
			t.Errorf("seller %s %s = %d", req.method, req.path, r.status)
		}
	}
}
