package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/staffaudit"
	"github.com/a2e-automation/app/internal/testing/stripemock"
	"github.com/a2e-automation/app/internal/testing/stripetest"
)

// together sends n console refunds of the customer at once, the i-th with
// key(i) and body, and returns the answers.
func (s *staffEnv) together(n int, key func(int) string, body map[string]any) []response {
	s.t.Helper()
	out := make([]response, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = s.staffPost("/api/staff/accounts/"+s.customer.ID+"/refunds", key(i), body)
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// staffRefundRows is the customer's console refund reservations: how many,
// and the cents of those not refused.
func (s *staffEnv) staffRefundRows() (rows int, cents int64) {
	s.t.Helper()
	if err := s.deps.Pool.QueryRow(context.Background(), `SELECT count(*), coalesce(sum(amount_cents) FILTER (WHERE status <> 'refused'), 0)
		FROM provider_requests WHERE account_id = $1 AND action = 'staff_refund'`, s.customer.ID).Scan(&rows, &cents); err != nil {
		s.t.Fatal(err)
	}
	return rows, cents
}

func statuses(rs []response) map[int]int {
	m := map[int]int{}
	for _, r := range rs {
		m[r.status]++
	}
	return m
}

// Issue 31, item 6: ten identical console refunds sent at once (one
// Idempotency-Key) refund once, write one audit line, and all answer that
// refund; with the simulated provider, which applies it at once.
func TestStaffRefundOneKeyConcurrentSimulated(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	s.command(func(a *domain.Account, now time.Time) error { return a.VerifyEmail(now) })
	pi := s.paidPack(10)
	for round := range 3 {
		key := fmt.Sprintf("double-click-%d", round)
		rs := s.together(10, func(int) string { return key }, map[string]any{"paymentId": pi, "credits": 2, "reason": "Double click"})
		for _, r := range rs {
			if r.status != 200 && r.status != 202 {
				t.Fatalf("round %d: answers %v: %d %s", round, statuses(rs), r.status, r.body)
			}
		}
		if got := statuses(rs)[200]; got != 1 {
			t.Fatalf("round %d: %d refunds applied (%v), want 1", round, got, statuses(rs))
		}
		if n := s.countEvents(s.customer.ID, "PaymentRefunded"); n != round+1 {
			t.Fatalf("round %d: %d refunds in the ledger, want %d", round, n, round+1)
		}
		s.checkAudit(s.customer.ID, staffaudit.ActionRefund, round+1)
	}
	if p := s.billingProfile(s.customer); p.CreditsAvailable != 4 {
		t.Fatalf("after three refunds of 2 credits: %+v", p)
	}
}

// Issue 31, item 7: ten whole refunds of one payment with different keys
// sent at once: one is made, the others are refused for want of anything
// left, and no more than the payment is ever reserved.
func TestStaffRefundDifferentKeysConcurrentSimulated(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	s.command(func(a *domain.Account, now time.Time) error { return a.VerifyEmail(now) })
	pi := s.paidPack(100)
	rs := s.together(10, func(i int) string { return fmt.Sprintf("whole-%d", i) }, map[string]any{"paymentId": pi, "reason": "Closing the account"})
	if st := statuses(rs); st[200] != 1 || st[409] != 9 {
		t.Fatalf("answers %v", st)
	}
	if n := s.countEvents(s.customer.ID, "PaymentRefunded"); n != 1 {
		t.Fatalf("%d refunds in the ledger", n)
	}
	if _, cents := s.staffRefundRows(); cents != 999 {
		t.Fatalf("%d cents reserved, want the payment's 999", cents)
	}
	s.checkAudit(s.customer.ID, staffaudit.ActionRefund, 1)
}

// refundCounter puts a reverse proxy before stripe-mock that counts the
// refunds asked of it.
func refundCounter(t *testing.T) (func(*config.Config), *atomic.Int64) {
	target, err := url.Parse(stripemock.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/v1/refunds" {
			n.Add(1)
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return func(c *config.Config) {
		withStripe(t)(c)
		c.StripeAPIBase = srv.URL
	}, &n
}

// Issues 31, items 6 and 7, against stripe-mock: one key sent ten times at
// once asks Stripe once and writes one audit line; ten whole refunds with
// different keys ask Stripe for one.
func TestStaffRefundConcurrentThroughStripe(t *testing.T) {
	t.Parallel()
	configure, calls := refundCounter(t)
	s := newStaffEnv(t, configure)
	pi := stripetest.PaymentIntent{ID: "pi_race", CustomerID: "cus_race", AccountID: s.customer.ID, Credits: 10, AmountCents: 100, Succeeded: true}
	if r := s.webhook("evt_race_paid", "payment_intent.succeeded", pi.Object()); r.status != 200 {
		t.Fatalf("payment = %d %s", r.status, r.body)
	}
	s.settle(s.customer.ID)

	rs := s.together(10, func(int) string { return "same" }, map[string]any{"paymentId": pi.ID, "credits": 2, "reason": "Double click"})
	replayed := 0
	for _, r := range rs {
		var got staffActionResponse
		r.json(t, &got)
		if r.status != 202 || got.AmountCents != 20 {
			t.Fatalf("one key at once: %d %s", r.status, r.body)
		}
		if got.Replayed {
			replayed++
		}
	}
	if replayed != 9 || calls.Load() != 1 {
		t.Fatalf("one key at once: %d replayed, %d refunds asked of Stripe; want 9 and 1", replayed, calls.Load())
	}
	s.checkAudit(s.customer.ID, staffaudit.ActionRefund, 1)

	// 20 cents are on their way (no charge.refunded yet): 80 are left.
	rs = s.together(10, func(i int) string { return fmt.Sprintf("whole-%d", i) }, map[string]any{"paymentId": pi.ID, "reason": "Closing the account"})
	if st := statuses(rs); st[202] != 1 || st[409] != 9 || calls.Load() != 2 {
		t.Fatalf("whole refunds at once: answers %v, %d refunds asked of Stripe", st, calls.Load())
	}
	if rows, cents := s.staffRefundRows(); rows != 2 || cents != 100 {
		t.Fatalf("%d reservations of %d cents, want 2 of the payment's 100", rows, cents)
	}
	s.checkAudit(s.customer.ID, staffaudit.ActionRefund, 2, "$0.80 of payment pi_race")
}

// Issue 31, item 6, for adjustments: one Idempotency-Key sent ten times at
// once grants once and writes one audit line (the event store's
// idempotency key and the audit line share the account's transaction).
func TestStaffAdjustmentOneKeyConcurrent(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	out := make([]response, 10)
	var wg sync.WaitGroup
	for i := range out {
		wg.Add(1)
		go func() { defer wg.Done(); out[i] = s.adjustWithKey("same-dialog", 7, "Goodwill") }()
	}
	wg.Wait()
	if st := statuses(out); st[201] != 10 {
		t.Fatalf("answers %v", st)
	}
	if n := s.countEvents(s.customer.ID, "CreditsGranted"); n != 1 {
		t.Fatalf("%d grants", n)
	}
	s.checkAudit(s.customer.ID, staffaudit.ActionAdjustment, 1, "+7 credits: Goodwill")
}

// Issue 31, item 6, for cancellations: ten console cancellations sent at
// once ask Stripe with one key and write one audit line.
func TestStaffCancelConcurrentThroughStripe(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t, withStripe(t))
	now := time.Now().UTC().Truncate(time.Second)
	inv := stripetest.Invoice{ID: "in_race", CustomerID: "cus_race", SubscriptionID: "sub_race", AccountID: s.customer.ID,
		PeriodStart: now.Add(-time.Hour), PeriodEnd: now.AddDate(0, 1, 0), AmountCents: 2999, Paid: true}
	if r := s.webhook("evt_race_invoice", "invoice.paid", inv.Object()); r.status != 200 {
		t.Fatalf("invoice.paid = %d %s", r.status, r.body)
	}
	s.settle(s.customer.ID)
	out := make([]response, 10)
	var wg sync.WaitGroup
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = s.staffPost("/api/staff/accounts/"+s.customer.ID+"/subscription/cancel", "", map[string]any{"atPeriodEnd": true, "reason": "Double click"})
		}()
	}
	wg.Wait()
	if st := statuses(out); st[202] != 10 {
		t.Fatalf("answers %v", st)
	}
	var keys int
	if err := s.deps.Pool.QueryRow(context.Background(), `SELECT count(*) FROM provider_requests WHERE account_id = $1 AND action = 'staff_cancel'`,
		s.customer.ID).Scan(&keys); err != nil {
		t.Fatal(err)
	}
	if keys != 1 {
		t.Fatalf("%d cancellation keys, want 1", keys)
	}
	s.checkAudit(s.customer.ID, staffaudit.ActionCancellation, 1)
}

// Issue 31, item 7, partial refunds with different keys at once, with the
// simulated provider: those that fit are all made and all in the ledger,
// the rest refused, and never more than the payment.
func TestStaffPartialRefundsConcurrentSimulated(t *testing.T) {
	t.Parallel()
	s := newStaffEnv(t)
	s.command(func(a *domain.Account, now time.Time) error { return a.VerifyEmail(now) })
	pi := s.paidPack(100) // $9.99
	rs := s.together(8, func(i int) string { return fmt.Sprintf("part-%d", i) }, map[string]any{"paymentId": pi, "credits": 30, "reason": "Partial"})
	dump := func() {
		rows, _ := s.deps.Pool.Query(context.Background(), `SELECT idempotency_key, status, amount_cents, coalesce(applied_event,''), created_at FROM provider_requests WHERE action='staff_refund' ORDER BY created_at`)
		for rows.Next() {
			var k, st, ev string
			var a int64
			var at time.Time
			_ = rows.Scan(&k, &st, &a, &ev, &at)
			t.Log(k[:20], st, a, ev, at.Format("15:04:05.000000"))
		}
		for _, r := range rs {
			t.Log(r.status, string(r.body))
		}
		h, _ := s.repo().History(context.Background(), s.customer.ID)
		for _, e := range h {
			t.Logf("%T %+v", e.Event, e.Event)
		}
	}
	if st := statuses(rs); st[200] != 3 || st[409] != 5 {
		dump()
		t.Fatalf("answers %v", st)
	}
	// Two refunds may come in one charge.refunded (its total covers both), as
	// with Stripe: the ledger's refunded total is what counts.
	if tx := s.transactions(s.customer.ID); len(tx) != 1 || tx[0].Status != domain.PaymentPartiallyRefunded {
		dump()
		t.Fatalf("transactions = %+v", tx)
	}
	if a, err := s.repo().FromSnapshot(context.Background(), s.customer.ID); err != nil || a.RefundedCents(pi) != 3*299 {
		dump()
		t.Fatalf("refunded in the ledger: %v", err)
	}
	if p := s.billingProfile(s.customer); p.CreditsAvailable != 10 {
		t.Fatalf("after three refunds of 30 credits: %+v", p)
	}
	if _, cents := s.staffRefundRows(); cents != 3*299 {
		t.Fatalf("%d cents reserved", cents)
	}
}
