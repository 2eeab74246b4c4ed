package mail

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/a2e-automation/app/internal/testing/smtptest"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// outboxRig is an outbox on a fresh database, delivered through a real
// SMTP server the test can make misbehave, on a settable clock.
type outboxRig struct {
	pool *pgxpool.Pool
	smtp *smtptest.Server
	now  time.Time
	mu   sync.Mutex
}

func newOutboxRig(t *testing.T) *outboxRig {
	return &outboxRig{pool: testdb.New(t), smtp: smtptest.Start(t), now: time.Now().UTC()}
}

func (r *outboxRig) clock() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.now
}

func (r *outboxRig) advance(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.now = r.now.Add(d)
}

func (r *outboxRig) sender(t *testing.T, opts SenderOptions) *Sender {
	t.Helper()
	m, err := NewSMTP(r.smtp.URL(), "A2E Automation <no-reply@example.com>", opts.withDefaults().Timeout, quiet())
	if err != nil {
		t.Fatal(err)
	}
	s := NewSender(r.pool, m, quiet(), opts)
	s.Now = r.clock
	return s
}

func (r *outboxRig) enqueue(t *testing.T, to string) {
	t.Helper()
	if err := Enqueue(context.Background(), r.pool, KindVerification, Message{To: to, Subject: "Your code", Text: "Your code is 123456."}, r.clock()); err != nil {
		t.Fatal(err)
	}
}

func (r *outboxRig) status(t *testing.T) map[string]int {
	t.Helper()
	rows, err := r.pool.Query(context.Background(), `SELECT status, count(*) FROM mail_outbox GROUP BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			t.Fatal(err)
		}
		out[st] = n
	}
	return out
}

func TestOutboxDeliversOnceAndBlanksTheBody(t *testing.T) {
	r := newOutboxRig(t)
	s := r.sender(t, SenderOptions{})
	r.enqueue(t, "a@example.com")
	r.enqueue(t, "b@example.com")
	if n, err := s.DeliverDue(context.Background()); err != nil || n != 2 {
		t.Fatalf("DeliverDue = %d, %v", n, err)
	}
	if n, _ := s.DeliverDue(context.Background()); n != 0 {
		t.Fatalf("a second pass sent %d", n)
	}
	if len(r.smtp.To("a@example.com")) != 1 || len(r.smtp.To("b@example.com")) != 1 {
		t.Fatalf("server got %d messages", len(r.smtp.Messages()))
	}
	var bodies int
	if err := r.pool.QueryRow(context.Background(), `SELECT count(*) FROM mail_outbox WHERE body <> ''`).Scan(&bodies); err != nil || bodies != 0 {
		t.Fatalf("%d sent mails keep their body (%v)", bodies, err)
	}
}

// Mail queued while the server is down or silent goes out once it returns,
// within the capped backoff.
func TestOutboxRetriesThroughAnOutage(t *testing.T) {
	for _, mode := range []string{smtptest.Down, smtptest.Silent} {
		t.Run(mode, func(t *testing.T) {
			r := newOutboxRig(t)
			s := r.sender(t, SenderOptions{Timeout: 300 * time.Millisecond, MaxBackoff: time.Minute})
			r.smtp.Set(mode)
			r.enqueue(t, "seller@example.com")
			for range 10 { // ten failed attempts, each after its backoff
				if _, err := s.DeliverDue(context.Background()); err != nil {
					t.Fatal(err)
				}
				r.advance(time.Minute)
			}
			var attempts int
			var lastError string
			if err := r.pool.QueryRow(context.Background(), `SELECT attempts, last_error FROM mail_outbox`).Scan(&attempts, &lastError); err != nil {
				t.Fatal(err)
			}
			if attempts != 10 || lastError == "" || r.status(t)["pending"] != 1 {
				t.Fatalf("after the outage: attempts %d, last error %q, %v", attempts, lastError, r.status(t))
			}
			r.smtp.Set(smtptest.Up)
			r.advance(time.Minute) // the cap: due again within a minute of the return
			if _, err := s.DeliverDue(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := r.smtp.To("seller@example.com"); len(got) != 1 || !strings.Contains(got[0], "123456") {
				t.Fatalf("delivered %d after the server came back", len(got))
			}
		})
	}
}

func TestOutboxGivesUpAndCounts(t *testing.T) {
	r := newOutboxRig(t)
	s := r.sender(t, SenderOptions{Timeout: 300 * time.Millisecond, GiveUpAfter: time.Hour})
	r.smtp.Set(smtptest.Down)
	r.enqueue(t, "seller@example.com")
	for range 70 {
		if _, err := s.DeliverDue(context.Background()); err != nil {
			t.Fatal(err)
		}
		r.advance(time.Minute)
	}
	if got := r.status(t); got["failed"] != 1 {
		t.Fatalf("status = %v", got)
	}
	r.enqueue(t, "other@example.com")
	if err := s.updateGauges(context.Background()); err != nil {
		t.Fatal(err)
	}
	if failed, pending := testutil.ToFloat64(s.failed), testutil.ToFloat64(s.pending); failed != 1 || pending != 1 {
		t.Fatalf("mail_outbox_failed = %v, mail_outbox_pending = %v; want 1 and 1", failed, pending)
	}
	r.smtp.Set(smtptest.Up)
	r.advance(time.Hour)
	if n, _ := s.DeliverDue(context.Background()); n != 1 || len(r.smtp.To("seller@example.com")) != 0 {
		t.Fatal("a failed mail was sent")
	}
}

// A code that outlives its validity during an outage is never sent, and a
// recipient refused for good is not retried.
func TestOutboxDropsExpiredAndRefusedMail(t *testing.T) {
	r := newOutboxRig(t)
	s := r.sender(t, SenderOptions{Timeout: 300 * time.Millisecond})
	r.smtp.Set(smtptest.Down)
	ctx := context.Background()
	if err := Enqueue(ctx, r.pool, KindVerification, Message{To: "late@example.com", Subject: "Code", Text: "111111", ValidFor: 15 * time.Minute}, r.clock()); err != nil {
		t.Fatal(err)
	}
	for range 20 { // twenty minutes of outage
		if _, err := s.DeliverDue(ctx); err != nil {
			t.Fatal(err)
		}
		r.advance(time.Minute)
	}
	r.smtp.Set(smtptest.Up)
	if _, err := s.DeliverDue(ctx); err != nil {
		t.Fatal(err)
	}
	if got := r.status(t); got["failed"] != 1 || len(r.smtp.Messages()) != 0 {
		t.Fatalf("an expired code: %v, %d sent", got, len(r.smtp.Messages()))
	}

	r.smtp.Set(smtptest.Reject)
	r.enqueue(t, "nobody@example.com")
	if n, err := s.DeliverDue(ctx); n != 1 || err != nil {
		t.Fatalf("DeliverDue = %d, %v", n, err)
	}
	var attempts int
	var lastError string
	if err := r.pool.QueryRow(ctx, `SELECT attempts, last_error FROM mail_outbox WHERE recipient = 'nobody@example.com' AND status = 'failed'`).Scan(&attempts, &lastError); err != nil || attempts != 1 || !strings.Contains(lastError, "550") {
		t.Fatalf("a refused recipient: attempts %d, %q, %v", attempts, lastError, err)
	}
}

// A sender killed while the server was still taking the mail leaves it to
// the next sender once the lease ends; the mail arrives once.
func TestOutboxSenderKilledMidDelivery(t *testing.T) {
	r := newOutboxRig(t)
	opts := SenderOptions{Timeout: time.Second}
	r.smtp.Set(smtptest.Silent)
	r.enqueue(t, "seller@example.com")
	killed := r.sender(t, opts)
	ctx, kill := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _, _ = killed.DeliverDue(ctx) }()
	waitFor(t, func() bool { return r.status(t)["sending"] == 1 })
	kill()
	<-done
	if got := r.status(t); got["sending"] != 1 {
		t.Fatalf("after the kill: %v", got)
	}
	r.smtp.Set(smtptest.Up)
	restarted := r.sender(t, opts)
	if n, _ := restarted.DeliverDue(context.Background()); n != 0 {
		t.Fatal("a leased mail was taken over before its lease ended")
	}
	r.advance(opts.withDefaults().lease())
	if n, err := restarted.DeliverDue(context.Background()); n != 1 || err != nil {
		t.Fatalf("after the lease: %d, %v", n, err)
	}
	if got := r.smtp.To("seller@example.com"); len(got) != 1 {
		t.Fatalf("delivered %d times", len(got))
	}
}

// Several senders (several API processes) share the outbox: each mail once.
func TestOutboxSendersShareTheWork(t *testing.T) {
	r := newOutboxRig(t)
	for i := range 30 {
		r.enqueue(t, "seller"+string(rune('a'+i%26))+string(rune('a'+i/26))+"@example.com")
	}
	var wg sync.WaitGroup
	for range 3 {
		s := r.sender(t, SenderOptions{})
		wg.Go(func() {
			if _, err := s.DeliverDue(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := len(r.smtp.Messages()); n != 30 {
		t.Fatalf("3 senders delivered %d messages for 30 mails", n)
	}
	if got := r.status(t); got["sent"] != 30 {
		t.Fatalf("status = %v", got)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 10 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
