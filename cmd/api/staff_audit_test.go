package main

import (
	"bytes"
	"context"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/staff"
	"github.com/a2e-automation/app/internal/staffaudit"
)

func (s *staffEnv) audit(query string) (staffaudit.Page, response) {
	s.t.Helper()
	var p staffaudit.Page
	r := s.get("/api/staff/audit?" + query)
	if r.status == 200 {
		r.json(s.t, &p)
	}
	return p, r
}

func actions(p staffaudit.Page) []string {
	var out []string
	for _, e := range p.Entries {
		out = append(out, e.Action)
	}
	return out
}

// Every staff read of an account and every action is in the trail, newest
// first, filtered by account and by staff member, paged by an opaque
// cursor; the table refuses UPDATE and DELETE.
func TestStaffAuditTrail(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	ctx := context.Background()
	id := s.customer.ID
	for _, p := range []string{"/api/staff/accounts?q=seller", "/api/staff/accounts/" + id, "/api/staff/accounts/" + id + "/history",
		"/api/staff/accounts/" + id + "/balance?asOf=2026-01-02", "/api/staff/accounts/" + id + "/comparison"} {
		if r := s.get(p); r.status != 200 {
			t.Fatalf("GET %s = %d %s", p, r.status, r.body)
		}
	}
	if r := s.adjust(25, "Goodwill for a failed sync"); r.status != 201 {
		t.Fatalf("adjustment = %d %s", r.status, r.body)
	}
	if r := s.do(request{method: "POST", path: "/api/staff/projections/profiles/rebuild", cookie: s.staff.Cookie}); r.status != 200 {
		t.Fatalf("rebuild = %d", r.status)
	}
	// A second staff member looks too.
	other := s.seedAccount("other-staff@example.com")
	if err := s.deps.Auth.SetStaff(ctx, other.Email, true); err != nil {
		t.Fatal(err)
	}
	s.passMFA(other)
	if r := s.do(request{method: "GET", path: "/api/staff/accounts/" + id + "/history", cookie: other.Cookie}); r.status != 200 {
		t.Fatal(r.status)
	}

	// Newest first; reading the trail is its first line (issue 31, item 11),
	// and the search's result is recorded against the account it showed.
	all, r := s.audit("")
	want := []string{staffaudit.ActionAuditRead, staffaudit.ActionHistory, staffaudit.ActionRebuild, staffaudit.ActionAdjustment, staffaudit.ActionComparison,
		staffaudit.ActionBalance, staffaudit.ActionHistory, staffaudit.ActionView, staffaudit.ActionSearchResult, staffaudit.ActionSearch}
	if r.status != 200 || !slices.Equal(actions(all), want) {
		t.Fatalf("trail = %d %v, want %v", r.status, actions(all), want)
	}
	adj := all.Entries[3]
	if adj.ActorID != s.staff.ID || adj.ActorEmail != "support@example.com" || adj.AccountID == nil || *adj.AccountID != id ||
		*adj.AccountEmail != "seller@example.com" || adj.Detail != "+25 credits: Goodwill for a failed sync" || adj.RequestID == "" ||
		time.Since(adj.At) > time.Minute {
		t.Fatalf("adjustment line: %+v", adj)
	}
	if all.Entries[5].Detail != "asOf=2026-01-02" || all.Entries[9].Detail != "q=seller" || all.Entries[9].AccountID != nil {
		t.Fatalf("details: %+v / %+v", all.Entries[5], all.Entries[9])
	}
	if e := all.Entries[8]; e.AccountID == nil || *e.AccountID != id || e.Detail != "q=seller" || e.Outcome != staffaudit.OutcomeDone {
		t.Fatalf("search result line: %+v", e)
	}
	if got, _ := s.audit("actor=" + url.QueryEscape("Other-Staff@example.com")); !slices.Equal(actions(got), []string{staffaudit.ActionHistory}) {
		t.Fatalf("by actor email: %v", actions(got))
	}
	// Five reads and the adjustment of the account, and this read of its trail.
	if got, _ := s.audit("actor=" + s.staff.ID + "&accountId=" + id); len(got.Entries) != 7 || got.Entries[0].Action != staffaudit.ActionAuditRead {
		t.Fatalf("by actor id and account: %v", actions(got))
	}
	// Pages of three; the first page's own line
	// comes first.
	snap, _ := s.audit("limit=200")
	want = append([]string{staffaudit.ActionAuditRead}, actions(snap)...)
	var paged []string
	cursor := ""
	for range 10 {
		p, r := s.audit("limit=3&cursor=" + cursor)
		if r.status != 200 {
			t.Fatalf("page: %d %s", r.status, r.body)
		}
		paged = append(paged, actions(p)...)
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	if !slices.Equal(paged, want) || cursor != "" {
		t.Fatalf("paged %v (cursor %q)", paged, cursor)
	}
	for _, q := range []string{"accountId=nope", "cursor=" + url.QueryEscape("not a cursor"), "limit=0", "limit=x", "limit=201"} {
		if _, r := s.audit(q); r.status != 400 || !strings.Contains(string(r.body), "must") && !strings.Contains(string(r.body), "cursor") {
			t.Errorf("?%s = %d %s", q, r.status, r.body)
		}
	}
	// Append-only, for the application too.
	for _, q := range []string{`UPDATE staff_audit SET detail = 'x'`, `DELETE FROM staff_audit`, `TRUNCATE staff_audit`} {
		if _, err := s.deps.Pool.Exec(ctx, q); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v", q, err)
		}
	}
}

// The same Idempotency-Key twice grants once and answers the same; the
// key with another request is refused; no key is refused.
func TestStaffAdjustmentIdempotent(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	first := s.adjustWithKey("dialog-1", 50, "Goodwill")
	again := s.adjustWithKey("dialog-1", 50, "Goodwill")
	if first.status != 201 || again.status != 201 || !bytes.Equal(first.body, again.body) || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("first %d %s, again %d %s %v", first.status, first.body, again.status, again.body, again.header)
	}
	if !bytes.Contains(again.body, []byte(`"balance":50`)) {
		t.Fatalf("balance: %s", again.body)
	}
	if r := s.adjustWithKey("dialog-1", 500, "Goodwill"); r.status != 422 || r.errorCode(t) != CodeIdempotencyKeyReused {
		t.Fatalf("the key with another amount = %d %s", r.status, r.body)
	}
	r := s.do(request{method: "POST", path: "/api/staff/accounts/" + s.customer.ID + "/adjustments", cookie: s.staff.Cookie,
		body: map[string]any{"credits": 5, "reason": "no key"}})
	if r.status != 400 || !strings.Contains(string(r.body), "Idempotency-Key") {
		t.Fatalf("without a key = %d %s", r.status, r.body)
	}
	history, err := s.repo().History(context.Background(), s.customer.ID)
	if err != nil {
		t.Fatal(err)
	}
	grants := 0
	for _, h := range history {
		if g, ok := h.Event.(domain.CreditsGranted); ok && g.Source == domain.SourceAdjustment {
			grants++
		}
	}
	if grants != 1 {
		t.Fatalf("%d adjustment grants, want 1", grants)
	}
	s.checkAudit(s.customer.ID, staffaudit.ActionAdjustment, 1) // the replay wrote none
	// The refusals (422, 400) are lines of their own (issue 31, item 11).
	refused := s.refusedOf(s.customer.ID, staffaudit.ActionAdjustment)
	if len(refused) != 2 || !strings.HasPrefix(refused[0].Detail, "400 invalid_request") || !strings.HasPrefix(refused[1].Detail, "422 idempotency_key_reused") {
		t.Fatalf("refused adjustments: %+v", refused)
	}
}

// A staff member cannot adjust their own account.
func TestStaffCannotAdjustOwnAccount(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	r := s.do(request{method: "POST", path: "/api/staff/accounts/" + s.staff.ID + "/adjustments", cookie: s.staff.Cookie,
		body: map[string]any{"credits": 1_000_000, "reason": "free money"}, header: map[string]string{"Idempotency-Key": "k"}})
	if r.status != 403 || r.errorCode(t) != CodeStaffOwnAccount || !strings.Contains(string(r.body), "own account") {
		t.Fatalf("own adjustment = %d %s", r.status, r.body)
	}
	if r := s.get("/api/staff/accounts/" + s.staff.ID); !bytes.Contains(r.body, []byte(`"creditsAvailable":0`)) || !bytes.Contains(r.body, []byte(`"isStaff":true`)) {
		t.Fatalf("own account after: %s", r.body)
	}
	if err := staff.RefuseOwnAccount("staff:"+s.staff.ID, s.staff.ID); err != staff.ErrOwnAccount {
		t.Fatalf("an event actor on its own account: %v", err)
	}
}

// GET /api/staff/accounts/{id}: profile, subscription, debt, frozen state
// and payments with what can still be refunded.
func TestStaffAccountView(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	pack := domain.PaymentRecorded{PaymentID: "pi_1", Kind: domain.PaymentKindCredits, Description: "100 credits",
		AmountCents: 1000, Status: domain.PaymentPaid, Credits: 100, GrantID: "purchase:pi_1"}
	s.command(func(a *domain.Account, now time.Time) error {
		if err := a.GrantCredits(domain.CreditsGranted{GrantID: "purchase:pi_1", Amount: 100, Source: domain.SourcePurchase, Reference: "pi_1"}, now); err != nil {
			return err
		}
		return a.RecordPayment(pack, now)
	})
	s.command(func(a *domain.Account, now time.Time) error { return a.RefundPayment("pi_1", 300, now) })
	s.command(func(a *domain.Account, now time.Time) error {
		return a.RecordPayment(domain.PaymentRecorded{PaymentID: "pi_2", Kind: domain.PaymentKindCredits, Description: "50 credits",
			AmountCents: 500, Status: domain.PaymentFailed, Credits: 50}, now)
	})
	var v staff.AccountView
	r := s.get("/api/staff/accounts/" + s.customer.ID)
	r.json(t, &v)
	if r.status != 200 || v.Email != "seller@example.com" || v.CreditsAvailable != 70 || v.Subscription.Status != domain.StatusInactive ||
		v.SpendingFrozen || v.CreditDebt != 0 || len(v.Payments) != 2 {
		t.Fatalf("account: %d %s", r.status, r.body)
	}
	p1, p2 := v.Payments[0], v.Payments[1]
	if p1.ID != "pi_1" || p1.Status != domain.PaymentPartiallyRefunded || p1.RefundedCents != 300 || p1.RefundableCents != 700 || p1.RefundableCredits != 70 {
		t.Fatalf("partly refunded payment: %+v", p1)
	}
	if p2.ID != "pi_2" || p2.Status != domain.PaymentFailed || p2.RefundableCents != 0 || p2.RefundableCredits != 0 {
		t.Fatalf("failed payment: %+v", p2)
	}
	for _, id := range []string{"00000000-0000-0000-0000-000000000000", "not-a-uuid"} {
		if r := s.get("/api/staff/accounts/" + id); r.status != 404 {
			t.Errorf("unknown account %s = %d %s", id, r.status, r.body)
		}
	}
}
