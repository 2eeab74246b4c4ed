package main

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/staff"
)

// adjust posts a staff adjustment of the customer with a fresh
// Idempotency-Key, as the webapp's dialog does.
func (s *staffEnv) adjust(credits int64, reason string) response {
	return s.adjustWithKey(uuid.NewString(), credits, reason)
}

func (s *staffEnv) adjustWithKey(key string, credits int64, reason string) response {
	return s.do(request{method: "POST", path: "/api/staff/accounts/" + s.customer.ID + "/adjustments", cookie: s.staff.Cookie,
		body: map[string]any{"credits": credits, "reason": reason}, header: map[string]string{"Idempotency-Key": key}})
}

// command runs cmd on the customer an hour after the previous one and
// returns the time it was recorded at.
func (s *staffEnv) command(cmd func(a *domain.Account, now time.Time) error) time.Time {
	s.t.Helper()
	s.clock = s.clock.Add(time.Hour)
	res, err := s.past.Update(context.Background(), s.customer.ID, eventstore.UpdateOptions{}, func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
		return nil, cmd(a, now)
	})
	if err != nil {
		s.t.Fatal(err)
	}
	s.waitFor(res.LastPosition)
	return s.clock
}

func (s *staffEnv) balanceAt(t time.Time) int64 {
	s.t.Helper()
	r := s.get("/api/staff/accounts/" + s.customer.ID + "/balance?asOf=" + url.QueryEscape(t.Format(time.RFC3339Nano)))
	var b staff.BalanceReport
	r.json(s.t, &b)
	if r.status != 200 {
		s.t.Fatalf("balance as of %s: %d %s", t, r.status, r.body)
	}
	return b.Balance
}

func TestStaffRoutesHiddenFromOthers(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	paths := []string{"/api/staff/accounts?q=seller", "/api/staff/accounts/" + s.customer.ID + "/history"}
	for _, p := range paths {
		for _, who := range []*seeded{nil, &s.customer} {
			req := request{method: "GET", path: p}
			if who != nil {
				req.cookie = who.Cookie
			}
			if r := s.do(req); r.status != 404 {
				t.Errorf("GET %s as %v = %d, want 404", p, who != nil, r.status)
			}
		}
	}
	r := s.do(request{method: "POST", path: "/api/staff/accounts/" + s.customer.ID + "/adjustments", cookie: s.customer.Cookie,
		body: map[string]any{"credits": 100, "reason": "free money"}})
	if r.status != 404 {
		t.Fatalf("a seller's adjustment = %d, want 404", r.status)
	}
	if got := s.get("/api/staff/accounts?q=SELLER"); got.status != 200 || !strings.Contains(string(got.body), s.customer.ID) {
		t.Fatalf("staff search = %d %s", got.status, got.body)
	}
	if got := s.get("/api/staff/accounts?q=" + s.customer.ID); got.status != 200 || !strings.Contains(string(got.body), "seller@example.com") {
		t.Fatalf("search by id = %d %s", got.status, got.body)
	}
}

// TestStaffReplay: the timeline's running balance ends at the profile's
// credits; the balance as of moments before and after a purchase, a spend
// and an expiry; adjustments carry the staff member as actor; the
// comparison finds a corrupted read table and a rebuild repairs it.
func TestStaffReplay(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	ctx := context.Background()
	purchased := s.command(func(a *domain.Account, now time.Time) error {
		return a.GrantCredits(domain.CreditsGranted{GrantID: "purchase:pi_1", Amount: 100, Source: domain.SourcePurchase, Reference: "pi_1"}, now)
	})
	spent := s.command(func(a *domain.Account, now time.Time) error { return a.Spend(domain.OperationAPIRequest, "req-1", now) })
	periodEnd := s.clock.Add(30 * 24 * time.Hour)
	s.command(func(a *domain.Account, now time.Time) error {
		return a.StartOrRenewCycle("sub_1", now, periodEnd, domain.MonthlyCredits, now)
	})
	// A listing spend in its one-event form (the charge carried by the
	// ListingRequested), which the console's comparison must count as spent.
	s.command(func(a *domain.Account, now time.Time) error { return a.RequestListing("l-1", "B000TEST01", "", now) })
	s.clock = periodEnd.Add(time.Minute)
	if _, err := command.New(command.Deps{Accounts: s.past}).ExpireCredits.Handle(ctx, command.ExpireCredits{Limit: 10}); err != nil {
		t.Fatal(err)
	}
	head, err := s.deps.Store.HeadPosition(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s.waitFor(head)
	for _, c := range []struct {
		at   time.Time
		want int64
	}{
		{purchased.Add(-time.Millisecond), 0},
		{purchased, 100},
		{spent, 99},
		{periodEnd.Add(-time.Second), 598},
		{periodEnd, 99},
		{s.clock, 99},
	} {
		if got := s.balanceAt(c.at); got != c.want {
			t.Errorf("balance as of %s = %d, want %d", c.at.Format(time.RFC3339Nano), got, c.want)
		}
	}

	// Page through the whole timeline, 2 events a page.
	var entries []staff.Entry
	cursor := ""
	for pages := 0; ; pages++ {
		r := s.get("/api/staff/accounts/" + s.customer.ID + "/history?limit=2&cursor=" + cursor)
		var page staff.Page
		r.json(t, &page)
		if r.status != 200 || pages > 20 {
			t.Fatalf("history page %d: %d %s", pages, r.status, r.body)
		}
		entries = append(entries, page.Entries...)
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	last := entries[len(entries)-1]
	var profileCredits int64
	if err := s.deps.Pool.QueryRow(ctx, `SELECT credits_available FROM profiles WHERE account_id = $1`, s.customer.ID).Scan(&profileCredits); err != nil {
		t.Fatal(err)
	}
	if last.RunningBalance != profileCredits || profileCredits != 99 || last.Type != "CreditsExpired" || last.CreditChange != -499 {
		t.Fatalf("last entry %+v, profile credits %d", last, profileCredits)
	}
	for i, e := range entries {
		if e.Version != int64(i+1) || e.Summary == "" || e.Time.IsZero() {
			t.Fatalf("entry %d = %+v", i, e)
		}
	}
	if r := s.get("/api/staff/accounts/" + s.customer.ID + "/history?cursor=" + url.QueryEscape(strings.Repeat("A", 20))); r.status != 400 {
		t.Fatalf("forged cursor = %d", r.status)
	}
	asOf := s.get("/api/staff/accounts/" + s.customer.ID + "/history?asOf=" + url.QueryEscape(spent.Format(time.RFC3339Nano)))
	var early staff.Page
	asOf.json(t, &early)
	if n := len(early.Entries); n == 0 || early.Entries[n-1].RunningBalance != 99 || early.NextCursor != "" {
		t.Fatalf("history as of the spend: %+v", early)
	}

	// Adjustments are events whose actor is the staff member.
	adjust := s.adjust
	if r := adjust(50, "Goodwill for a failed sync"); r.status != 201 || !bytes.Contains(r.body, []byte(`"balance":149`)) {
		t.Fatalf("grant adjustment = %d %s", r.status, r.body)
	}
	if r := adjust(-1000, "Too much"); r.status != 402 {
		t.Fatalf("removing more than the balance = %d %s", r.status, r.body)
	}
	if r := adjust(-9, "Duplicate goodwill"); r.status != 201 || !bytes.Contains(r.body, []byte(`"balance":140`)) {
		t.Fatalf("debit adjustment = %d %s", r.status, r.body)
	}
	if r := adjust(5, ""); r.status != 400 {
		t.Fatalf("adjustment without a reason = %d", r.status)
	}
	if r := adjust(1, strings.Repeat("é", 300)); r.status != 201 {
		t.Fatalf("a 300-character reason of 2-byte letters = %d %s", r.status, r.body)
	}
	if r := adjust(-1, strings.Repeat("é", 300)); r.status != 201 {
		t.Fatalf("undoing it = %d %s", r.status, r.body)
	}
	history, err := s.repo().History(ctx, s.customer.ID)
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := s.deps.Store.ReadStream(ctx, domain.StreamID(s.customer.ID), int64(len(history)-2), 0)
	for _, rec := range recs {
		if rec.Metadata.Actor != "staff:"+s.staff.ID {
			t.Fatalf("adjustment %s has actor %q", rec.Type, rec.Metadata.Actor)
		}
	}

	// The comparison catches a read table that drifted; a rebuild repairs it.
	compare := func() staff.Comparison {
		var c staff.Comparison
		r := s.get("/api/staff/accounts/" + s.customer.ID + "/comparison")
		r.json(t, &c)
		if r.status != 200 {
			t.Fatalf("comparison = %d %s", r.status, r.body)
		}
		return c
	}
	if c := compare(); !c.Consistent {
		t.Fatalf("fresh comparison: %+v", c)
	}
	if _, err := s.deps.Pool.Exec(ctx, `UPDATE profiles SET credits_available = 5 WHERE account_id = $1`, s.customer.ID); err != nil {
		t.Fatal(err)
	}
	c := compare()
	if c.Consistent || len(c.Differences) != 1 || c.Differences[0].Field != "creditsAvailable" || fmt.Sprint(c.Differences[0].ReadModel) != "5" {
		t.Fatalf("comparison after corruption: %+v", c)
	}
	if r := s.do(request{method: "POST", path: "/api/staff/projections/profiles/rebuild", cookie: s.staff.Cookie}); r.status != 200 {
		t.Fatalf("rebuild = %d %s", r.status, r.body)
	}
	if c := compare(); !c.Consistent {
		t.Fatalf("after a rebuild: %+v", c)
	}
	if r := s.do(request{method: "POST", path: "/api/staff/projections/nope/rebuild", cookie: s.staff.Cookie}); r.status != 404 {
		t.Fatalf("rebuild of an unknown projection = %d", r.status)
	}
}

func TestStaffCommand(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("new-staff@example.com")
	env := map[string]string{"APP_ENV": "development", "DATABASE_URL": e.deps.DatabaseURL}
	getenv := func(k string) string { return env[k] }
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"api", "staff", "add", "New-Staff@example.com"}, getenv, &out, &errOut); err != nil {
		t.Fatal(err, errOut.String())
	}
	if r := e.do(request{method: "GET", path: "/api/staff/accounts?q=new", cookie: s.Cookie}); r.status != 403 || !strings.Contains(string(r.body), CodeStaffMFARequired) {
		t.Fatalf("after staff add, before the second factor: %d %s", r.status, r.body)
	}
	e.passMFA(s)
	if r := e.do(request{method: "GET", path: "/api/staff/accounts?q=new", cookie: s.Cookie}); r.status != 200 {
		t.Fatalf("after staff add and the second factor: %d", r.status)
	}
	if r := e.do(request{method: "GET", path: "/api/user", cookie: s.Cookie}); !strings.Contains(string(r.body), `"isStaff":true`) {
		t.Fatalf("the user of a staff member: %d %s", r.status, r.body)
	}
	if err := run(context.Background(), []string{"api", "staff", "remove", "new-staff@example.com"}, getenv, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if r := e.do(request{method: "GET", path: "/api/staff/accounts?q=new", cookie: s.Cookie}); r.status != 404 {
		t.Fatalf("after staff remove: %d", r.status)
	}
	// Signed out everywhere (issue 31, item 10); signed in again, a seller.
	if r := e.do(request{method: "GET", path: "/api/user", cookie: s.Cookie}); r.status != 401 {
		t.Fatalf("the session of a former staff member: %d %s", r.status, r.body)
	}
	s.Cookie = e.newStaffSession(s)
	if r := e.do(request{method: "GET", path: "/api/user", cookie: s.Cookie}); !strings.Contains(string(r.body), `"isStaff":false`) {
		t.Fatalf("the user of a former staff member: %d %s", r.status, r.body)
	}
	if err := run(context.Background(), []string{"api", "staff", "add", "nobody@example.com"}, getenv, &out, &errOut); err == nil || !strings.Contains(err.Error(), "no account") {
		t.Fatalf("unknown email: %v", err)
	}
	if err := run(context.Background(), []string{"api", "staff", "promote"}, getenv, &out, &errOut); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Fatalf("bad usage: %v", err)
	}
}
