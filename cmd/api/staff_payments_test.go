package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/staff"
)

// staffPost posts body to path as the staff member, with an
// Idempotency-Key when key is not "".
func (s *staffEnv) staffPost(path, key string, body any) response {
	s.t.Helper()
	req := request{method: "POST", path: path, body: body, cookie: s.staff.Cookie}
	if key != "" {
		req.header = map[string]string{"Idempotency-Key": key}
	}
	return s.do(req)
}

// historyEntry is the customer's newest history entry of type typ.
func (s *staffEnv) historyEntry(typ string) (staff.Entry, bool) {
	s.t.Helper()
	var page staff.Page
	r := s.get("/api/staff/accounts/" + s.customer.ID + "/history?limit=500")
	r.json(s.t, &page)
	for i := len(page.Entries) - 1; i >= 0; i-- {
		if page.Entries[i].Type == typ {
			return page.Entries[i], true
		}
	}
	return staff.Entry{}, false
}

// checkStaffEntry asserts the customer's newest entry of type typ names
// the staff member and reason.
func (s *staffEnv) checkStaffEntry(typ, reason string) {
	s.t.Helper()
	e, ok := s.historyEntry(typ)
	if !ok || e.Actor != "staff:"+s.staff.ID || e.Reason != reason {
		s.t.Fatalf("%s in the history = %+v (found %v), want staff:%s and %q", typ, e, ok, s.staff.ID, reason)
	}
}

// paidPack buys a pack of credits for the customer with the simulated
// provider and returns its payment id.
func (s *staffEnv) paidPack(credits int) string {
	s.t.Helper()
	secret := s.checkout(s.customer, "/api/credits/purchase", map[string]int{"creditAmount": credits})
	if r, _ := s.confirm(s.customer, secret, "succeeded"); r.status != 200 {
		s.t.Fatalf("confirm = %d %s", r.status, r.body)
	}
	var id string
	if err := s.deps.Pool.QueryRow(context.Background(), `SELECT intent_id FROM payment_intents WHERE account_id = $1 AND credits = $2
		ORDER BY created_at DESC LIMIT 1`, s.customer.ID, credits).Scan(&id); err != nil {
		s.t.Fatal(err)
	}
	return id
}

// TestStaffRefundSimulated refunds part of a pack and then the rest from
// the console with the simulated provider: each arrives through the same
// path as a webhook's refund, and the history shows the staff member and
// reason; the same Idempotency-Key refunds once; more than is left, one's
// own account and bad input are refused; a seller gets 404.
func TestStaffRefundSimulated(t *testing.T) {
	s := newStaffEnv(t)
	s.command(func(a *domain.Account, now time.Time) error { return a.VerifyEmail(now) })
	pi := s.paidPack(100) // $9.99
	refunds := "/api/staff/accounts/" + s.customer.ID + "/refunds"

	if r := s.staffPost("/api/staff/accounts/"+s.staff.ID+"/refunds", "", map[string]any{"paymentId": pi, "reason": "Testing myself"}); r.status != 403 ||
		r.errorCode(t) != CodeForbidden || !strings.Contains(r.message(t), "their own account") {
		t.Fatalf("refund of one's own account = %d %s", r.status, r.body)
	}
	if r := s.do(request{method: "POST", path: refunds, cookie: s.customer.Cookie, body: map[string]any{"paymentId": pi, "reason": "Give it back"}}); r.status != 404 {
		t.Fatalf("a seller's refund = %d %s", r.status, r.body)
	}
	for _, c := range []struct {
		body   map[string]any
		status int
		want   string
	}{
		{map[string]any{"paymentId": pi}, 400, "A reason of 3 to 500 characters is required"},
		{map[string]any{"paymentId": pi, "credits": 0, "reason": "Goodwill"}, 400, "Credits to refund must be a whole number of at least 1, or left out to refund what is left"},
		{map[string]any{"paymentId": pi, "credits": 101, "reason": "Goodwill"}, 400, "Credits to refund must be between 1 and 100"},
		{map[string]any{"reason": "Goodwill"}, 400, "The payment to refund is required"},
		{map[string]any{"paymentId": "pi_unknown", "reason": "Goodwill"}, 404, "This account has no paid payment pi_unknown"},
	} {
		if r := s.staffPost(refunds, "", c.body); r.status != c.status || r.message(t) != c.want {
			t.Errorf("%v = %d %s", c.body, r.status, r.body)
		}
	}

	const reason = "Sync failed for two days"
	r := s.staffPost(refunds, "refund-1", map[string]any{"paymentId": pi, "credits": 20, "reason": reason})
	if r.status != 200 || !strings.Contains(r.message(t), "Refunded $1.99") {
		t.Fatalf("partial refund = %d %s", r.status, r.body)
	}
	if p := s.billingProfile(s.customer); p.CreditsAvailable != 80 {
		t.Fatalf("after the partial refund: %+v", p)
	}
	s.checkStaffEntry("PaymentRefunded", reason)
	s.checkStaffEntry("CreditsRevoked", reason)

	// The same key again refunds nothing more and answers the first refund.
	var again staffActionResponse
	r = s.staffPost(refunds, "refund-1", map[string]any{"paymentId": pi, "credits": 20, "reason": reason})
	r.json(t, &again)
	if r.status != 202 || !again.Replayed || again.AmountCents != 199 {
		t.Fatalf("same key again = %d %s", r.status, r.body)
	}
	if n := s.countEvents(s.customer.ID, "PaymentRefunded"); n != 1 {
		t.Fatalf("%d refunds recorded", n)
	}
	if r := s.staffPost(refunds, "refund-1", map[string]any{"paymentId": pi, "credits": 30, "reason": reason}); r.status != 422 || r.errorCode(t) != CodeIdempotencyKeyReused {
		t.Fatalf("same key, other credits = %d %s", r.status, r.body)
	}
	if r := s.staffPost(refunds, "refund-2", map[string]any{"paymentId": pi, "credits": 90, "reason": reason}); r.status != 409 ||
		!strings.Contains(r.message(t), "Only $8.00 of this payment can still be refunded") {
		t.Fatalf("more than is left = %d %s", r.status, r.body)
	}
	r = s.staffPost(refunds, "refund-3", map[string]any{"paymentId": pi, "reason": "Closing the account"})
	if r.status != 200 || !strings.Contains(r.message(t), "$9.99 of $9.99 refunded in total") {
		t.Fatalf("refund of the rest = %d %s", r.status, r.body)
	}
	if p := s.billingProfile(s.customer); p.CreditsAvailable != 0 {
		t.Fatalf("after the whole refund: %+v", p)
	}
	s.checkStaffEntry("PaymentRefunded", "Closing the account")
	if tx := s.transactions(s.customer.ID); len(tx) != 1 || tx[0].Status != domain.PaymentRefundedInFull {
		t.Fatalf("transactions = %+v", tx)
	}
	if r := s.staffPost(refunds, "refund-4", map[string]any{"paymentId": pi, "reason": "Once more"}); r.status != 409 || r.message(t) != "This payment is already refunded in full" {
		t.Fatalf("refund of a refunded payment = %d %s", r.status, r.body)
	}
}

// TestStaffCancelSimulated cancels a subscription at the period end, then
// now, from the console with the simulated provider.
func TestStaffCancelSimulated(t *testing.T) {
	s := newStaffEnv(t)
	s.command(func(a *domain.Account, now time.Time) error { return a.VerifyEmail(now) })
	if r, _ := s.confirm(s.customer, s.checkout(s.customer, "/api/subscription/create", nil), "succeeded"); r.status != 200 {
		t.Fatalf("subscribe = %d %s", r.status, r.body)
	}
	cancel := "/api/staff/accounts/" + s.customer.ID + "/subscription/cancel"
	if r := s.staffPost(cancel, "", map[string]any{"reason": "Asked by phone"}); r.status != 400 || r.problem(t).Errors["atPeriodEnd"] == "" {
		t.Fatalf("without atPeriodEnd = %d %s", r.status, r.body)
	}
	if r := s.staffPost("/api/staff/accounts/"+s.staff.ID+"/subscription/cancel", "", map[string]any{"atPeriodEnd": true, "reason": "Mine"}); r.status != 403 {
		t.Fatalf("cancel of one's own = %d %s", r.status, r.body)
	}
	if r := s.do(request{method: "POST", path: cancel, cookie: s.customer.Cookie, body: map[string]any{"atPeriodEnd": true, "reason": "Stop it"}}); r.status != 404 {
		t.Fatalf("a seller's call = %d", r.status)
	}
	if r := s.staffPost(cancel, "", map[string]any{"atPeriodEnd": true, "reason": "Asked by phone"}); r.status != 200 || !strings.Contains(r.message(t), "stays active until") {
		t.Fatalf("cancel at period end = %d %s", r.status, r.body)
	}
	if p := s.billingProfile(s.customer); p.SubscriptionStatus != domain.StatusCancelling {
		t.Fatalf("profile = %+v", p)
	}
	s.checkStaffEntry("SubscriptionCancelled", "Asked by phone")
	if r := s.staffPost(cancel, "", map[string]any{"atPeriodEnd": true, "reason": "Asked by phone"}); r.status != 409 || !strings.Contains(r.message(t), "already cancelled") {
		t.Fatalf("again = %d %s", r.status, r.body)
	}
	if r := s.staffPost(cancel, "", map[string]any{"atPeriodEnd": false, "reason": "Fraud suspected"}); r.status != 200 {
		t.Fatalf("cancel now = %d %s", r.status, r.body)
	}
	if p := s.billingProfile(s.customer); p.SubscriptionStatus != domain.StatusCancelled {
		t.Fatalf("profile = %+v", p)
	}
	s.checkStaffEntry("SubscriptionEnded", "Fraud suspected")
	if r := s.staffPost(cancel, "", map[string]any{"atPeriodEnd": false, "reason": "Again"}); r.status != 409 || r.message(t) != "No active subscription to cancel" {
		t.Fatalf("nothing to cancel = %d %s", r.status, r.body)
	}
}
