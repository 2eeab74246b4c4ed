package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/staff"
	"github.com/a2e-automation/app/internal/staffaudit"
	"github.com/a2e-automation/app/internal/testing/faultproxy"
	"github.com/a2e-automation/app/internal/testing/stripetest"
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

// auditOf is the audit trail's lines of action done on the account, newest
// first (GET /api/staff/audit?accountId=); refusedOf, of action refused.
func (s *staffEnv) auditOf(accountID, action string) []staffaudit.Row {
	return s.auditLines(accountID, action, staffaudit.OutcomeDone)
}

func (s *staffEnv) refusedOf(accountID, action string) []staffaudit.Row {
	return s.auditLines(accountID, action, staffaudit.OutcomeRefused)
}

func (s *staffEnv) auditLines(accountID, action, outcome string) []staffaudit.Row {
	s.t.Helper()
	p, r := s.audit("limit=200&accountId=" + accountID)
	if r.status != 200 {
		s.t.Fatalf("audit of %s = %d %s", accountID, r.status, r.body)
	}
	var out []staffaudit.Row
	for _, e := range p.Entries {
		if e.Action == action && e.Outcome == outcome {
			out = append(out, e)
		}
	}
	return out
}

// checkAudit asserts the account has n lines of action by the staff
// member, the newest with a request id and a detail holding each of want.
func (s *staffEnv) checkAudit(accountID, action string, n int, want ...string) {
	s.t.Helper()
	lines := s.auditOf(accountID, action)
	if len(lines) != n {
		s.t.Fatalf("%d audit lines %s on %s, want %d: %+v", len(lines), action, accountID, n, lines)
	}
	if n == 0 {
		return
	}
	e := lines[0]
	if e.ActorID != s.staff.ID || e.AccountID == nil || *e.AccountID != accountID || e.RequestID == "" {
		s.t.Fatalf("audit line %s = %+v", action, e)
	}
	for _, w := range want {
		if !strings.Contains(e.Detail, w) {
			s.t.Fatalf("audit line %s detail %q, want %q in it", action, e.Detail, w)
		}
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
	t.Parallel()
	s := newStaffEnv(t)
	s.command(func(a *domain.Account, now time.Time) error { return a.VerifyEmail(now) })
	pi := s.paidPack(100) // $9.99
	refunds := "/api/staff/accounts/" + s.customer.ID + "/refunds"

	if r := s.staffPost(refunds, "", map[string]any{"paymentId": pi, "reason": "No key"}); r.status != 400 ||
		!strings.Contains(r.message(t), "Idempotency-Key header is required") {
		t.Fatalf("a refund without an Idempotency-Key = %d %s", r.status, r.body)
	}
	if r := s.staffPost("/api/staff/accounts/"+s.staff.ID+"/refunds", "self-1", map[string]any{"paymentId": pi, "reason": "Testing myself"}); r.status != 403 ||
		r.errorCode(t) != CodeStaffOwnAccount || !strings.Contains(r.message(t), "their own account") {
		t.Fatalf("refund of one's own account = %d %s", r.status, r.body)
	}
	s.checkAudit(s.staff.ID, staffaudit.ActionRefund, 0)
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
		if r := s.staffPost(refunds, "bad-input", c.body); r.status != c.status || r.message(t) != c.want {
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
	s.checkAudit(s.customer.ID, staffaudit.ActionRefund, 1, "$1.99 of payment "+pi, reason)

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
	s.checkAudit(s.customer.ID, staffaudit.ActionRefund, 1) // a replay is no new refund
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
	s.checkAudit(s.customer.ID, staffaudit.ActionRefund, 2, "$8.00 of payment "+pi, "Closing the account")
	if tx := s.transactions(s.customer.ID); len(tx) != 1 || tx[0].Status != domain.PaymentRefundedInFull {
		t.Fatalf("transactions = %+v", tx)
	}
	if r := s.staffPost(refunds, "refund-4", map[string]any{"paymentId": pi, "reason": "Once more"}); r.status != 409 || r.message(t) != "This payment is already refunded in full" {
		t.Fatalf("refund of a refunded payment = %d %s", r.status, r.body)
	}
}

// TestStaffCancelSimulated refunds part of a subscription cycle, then
// cancels the subscription at the period end, then now, from the console
// with the simulated provider.
func TestStaffCancelSimulated(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	s.command(func(a *domain.Account, now time.Time) error { return a.VerifyEmail(now) })
	if r, _ := s.confirm(s.customer, s.checkout(s.customer, "/api/subscription/create", nil), "succeeded"); r.status != 200 {
		t.Fatalf("subscribe = %d %s", r.status, r.body)
	}
	// A cycle's payment is its invoice: refunded through its checkout's
	// PaymentIntent, taking back the share of that cycle's monthly credits.
	invoice := s.transactions(s.customer.ID)[0].ID
	if r := s.staffPost("/api/staff/accounts/"+s.customer.ID+"/refunds", "cycle-1", map[string]any{"paymentId": invoice, "credits": 100, "reason": "Outage week"}); r.status != 200 {
		t.Fatalf("refund of the cycle = %d %s", r.status, r.body)
	}
	if p := s.billingProfile(s.customer); p.CreditsAvailable != 400 || p.SubscriptionStatus != domain.StatusActive {
		t.Fatalf("after refunding a fifth of the cycle: %+v", p)
	}
	s.checkStaffEntry("PaymentRefunded", "Outage week")
	s.checkAudit(s.customer.ID, staffaudit.ActionRefund, 1, "of payment "+invoice, "Outage week")

	cancel := "/api/staff/accounts/" + s.customer.ID + "/subscription/cancel"
	if r := s.staffPost(cancel, "", map[string]any{"reason": "Asked by phone"}); r.status != 400 || r.problem(t).Errors["atPeriodEnd"] == "" {
		t.Fatalf("without atPeriodEnd = %d %s", r.status, r.body)
	}
	if r := s.staffPost("/api/staff/accounts/"+s.staff.ID+"/subscription/cancel", "", map[string]any{"atPeriodEnd": true, "reason": "Mine"}); r.status != 403 ||
		r.errorCode(t) != CodeStaffOwnAccount {
		t.Fatalf("cancel of one's own = %d %s", r.status, r.body)
	}
	s.checkAudit(s.staff.ID, staffaudit.ActionCancellation, 0)
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
	s.checkAudit(s.customer.ID, staffaudit.ActionCancellation, 1, "cancel at the period end: Asked by phone")
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
	s.checkAudit(s.customer.ID, staffaudit.ActionCancellation, 2, "cancel now: Fraud suspected")
	if r := s.staffPost(cancel, "", map[string]any{"atPeriodEnd": false, "reason": "Again"}); r.status != 409 || r.message(t) != "No active subscription to cancel" {
		t.Fatalf("nothing to cancel = %d %s", r.status, r.body)
	}
}

// TestStaffRefundThroughStripe: a console refund asks Stripe (stripe-mock)
// for the refund and changes no ledger itself; the signed charge.refunded
// that follows applies it, with the staff member and reason in the
// history. While Stripe is down the console answers 503 "try again" and
// keeps the reservation; the retry with the same Idempotency-Key reuses
// its key, so Stripe refunds once.
func TestStaffRefundThroughStripe(t *testing.T) {
	t.Parallel()
	configure, stripe := withStripeBehind(t)
	s := newStaffEnv(t, configure)
	pi := stripetest.PaymentIntent{ID: "pi_console", CustomerID: "cus_console", AccountID: s.customer.ID, Credits: 100, AmountCents: 999, Succeeded: true}
	if r := s.webhook("evt_console_paid", "payment_intent.succeeded", pi.Object()); r.status != 200 {
		t.Fatalf("payment = %d %s", r.status, r.body)
	}
	s.settle(s.customer.ID)
	refunds := "/api/staff/accounts/" + s.customer.ID + "/refunds"
	charge := stripetest.Charge{ID: "ch_console", PaymentIntentID: pi.ID, CustomerID: "cus_console", AccountID: s.customer.ID, Credits: 100, AmountCents: 999}

	var got staffActionResponse
	r := s.staffPost(refunds, "console-1", map[string]any{"paymentId": pi.ID, "credits": 20, "reason": "Duplicate purchase"})
	r.json(t, &got)
	if r.status != 202 || got.Status != "requested" || got.AmountCents != 199 || got.RefundID == "" {
		t.Fatalf("refund = %d %s", r.status, r.body)
	}
	if n := s.countEvents(s.customer.ID, "PaymentRefunded"); n != 0 {
		t.Fatalf("the console appended %d refunds itself", n)
	}
	// Audited when Stripe took the refund, with its id.
	s.checkAudit(s.customer.ID, staffaudit.ActionRefund, 1, "$1.99 of payment pi_console (refund "+got.RefundID+"): Duplicate purchase")
	charge.RefundedCents = 199
	if r := s.webhook("evt_console_refund_1", "charge.refunded", charge.Object()); r.status != 200 {
		t.Fatalf("charge.refunded = %d %s", r.status, r.body)
	}
	s.settle(s.customer.ID)
	s.checkStaffEntry("PaymentRefunded", "Duplicate purchase")
	if p := s.billingProfile(s.customer); p.CreditsAvailable != 80 {
		t.Fatalf("after the refund: %+v", p)
	}
	if r := s.staffPost(refunds, "console-1", map[string]any{"paymentId": pi.ID, "credits": 20, "reason": "Duplicate purchase"}); r.status != 202 || !strings.Contains(string(r.body), `"replayed":true`) {
		t.Fatalf("same key again = %d %s", r.status, r.body)
	}
	s.checkAudit(s.customer.ID, staffaudit.ActionRefund, 1)

	// Stripe down: 503 with the outage code, nothing recorded, the
	// reservation kept; Stripe back: the retry reuses its key.
	stripe.Set(faultproxy.Down)
	r = s.staffPost(refunds, "console-2", map[string]any{"paymentId": pi.ID, "credits": 30, "reason": "Goodwill"})
	if r.status != 503 || r.errorCode(t) != CodeServiceUnavailable || !strings.Contains(r.message(t), "try again") || r.header.Get("Retry-After") == "" {
		t.Fatalf("refund while Stripe is down = %d %s", r.status, r.body)
	}
	s.checkAudit(s.customer.ID, staffaudit.ActionRefund, 1) // Stripe took nothing yet
	stripe.Set(faultproxy.Up)
	if r := s.staffPost(refunds, "console-2", map[string]any{"paymentId": pi.ID, "credits": 30, "reason": "Goodwill"}); r.status != 202 {
		t.Fatalf("retry = %d %s", r.status, r.body)
	}
	s.checkAudit(s.customer.ID, staffaudit.ActionRefund, 2, "$2.99 of payment pi_console", "Goodwill")
	var rows, done int
	if err := s.deps.Pool.QueryRow(context.Background(), `SELECT count(*), count(*) FILTER (WHERE status = 'done')
		FROM provider_requests WHERE account_id = $1 AND action = 'staff_refund'`, s.customer.ID).Scan(&rows, &done); err != nil {
		t.Fatal(err)
	}
	if rows != 2 || done != 2 {
		t.Fatalf("staff refund reservations = %d, done %d; want one per key", rows, done)
	}
	charge.RefundedCents = 199 + 299
	if r := s.webhook("evt_console_refund_2", "charge.refunded", charge.Object()); r.status != 200 {
		t.Fatalf("charge.refunded = %d %s", r.status, r.body)
	}
	s.settle(s.customer.ID)
	s.checkStaffEntry("PaymentRefunded", "Goodwill")
	if p := s.billingProfile(s.customer); p.CreditsAvailable != 50 {
		t.Fatalf("after the second refund: %+v", p)
	}
	if r := s.staffPost(refunds, "console-3", map[string]any{"paymentId": pi.ID, "credits": 60, "reason": "Too much"}); r.status != 409 ||
		!strings.Contains(r.message(t), "can still be refunded") {
		t.Fatalf("more than is left = %d %s", r.status, r.body)
	}
	// A refund made in the Stripe Dashboard names no staff member.
	charge.RefundedCents = 999
	s.webhook("evt_dashboard_refund", "charge.refunded", charge.Object())
	s.settle(s.customer.ID)
	if e, _ := s.historyEntry("PaymentRefunded"); e.Actor != "stripe" || e.Reason != "" {
		t.Fatalf("a dashboard refund in the history = %+v", e)
	}
}

// TestStaffCancelThroughStripe cancels at the period end, then now, through
// stripe-mock; each is applied by its signed customer.subscription event,
// with the staff member and reason in the history.
func TestStaffCancelThroughStripe(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t, withStripe(t))
	now := time.Now().UTC().Truncate(time.Second)
	inv := stripetest.Invoice{ID: "in_console", CustomerID: "cus_console", SubscriptionID: "sub_console", AccountID: s.customer.ID,
		PeriodStart: now.Add(-time.Hour), PeriodEnd: now.AddDate(0, 1, 0), AmountCents: 2999, Paid: true}
	if r := s.webhook("evt_console_invoice", "invoice.paid", inv.Object()); r.status != 200 {
		t.Fatalf("invoice.paid = %d %s", r.status, r.body)
	}
	cancel := "/api/staff/accounts/" + s.customer.ID + "/subscription/cancel"
	if r := s.staffPost(cancel, "", map[string]any{"atPeriodEnd": true, "reason": "Moving to another tool"}); r.status != 202 {
		t.Fatalf("cancel at period end = %d %s", r.status, r.body)
	}
	if last := s.lastEvent(s.customer.ID); last == "SubscriptionCancelled" {
		t.Fatal("the console recorded the cancellation itself")
	}
	sub := stripetest.Subscription{ID: "sub_console", CustomerID: "cus_console", AccountID: s.customer.ID, Status: "active",
		CancelAtPeriodEnd: true, PeriodStart: inv.PeriodStart, PeriodEnd: inv.PeriodEnd}
	if r := s.webhook("evt_console_cancel", "customer.subscription.updated", sub.Object()); r.status != 200 {
		t.Fatalf("subscription.updated = %d %s", r.status, r.body)
	}
	s.settle(s.customer.ID)
	s.checkStaffEntry("SubscriptionCancelled", "Moving to another tool")
	s.checkAudit(s.customer.ID, staffaudit.ActionCancellation, 1, "cancel at the period end: Moving to another tool")
	if p := s.billingProfile(s.customer); p.SubscriptionStatus != domain.StatusCancelling {
		t.Fatalf("profile = %+v", p)
	}
	if r := s.staffPost(cancel, "", map[string]any{"atPeriodEnd": false, "reason": "Chargeback risk"}); r.status != 202 {
		t.Fatalf("cancel now = %d %s", r.status, r.body)
	}
	sub.Status, sub.CancelAtPeriodEnd = "canceled", false
	if r := s.webhook("evt_console_deleted", "customer.subscription.deleted", sub.Object()); r.status != 200 {
		t.Fatalf("subscription.deleted = %d %s", r.status, r.body)
	}
	s.settle(s.customer.ID)
	s.checkStaffEntry("SubscriptionEnded", "Chargeback risk")
	s.checkAudit(s.customer.ID, staffaudit.ActionCancellation, 2, "cancel now: Chargeback risk")
	if p := s.billingProfile(s.customer); p.SubscriptionStatus != domain.StatusCancelled {
		t.Fatalf("profile = %+v", p)
	}
}
