package auth

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2e-automation/app/internal/mail"
)

// resetRig is a reset worker on the fixture's store whose mails are counted.
type resetRig struct {
	f      *fixture
	now    time.Time
	mails  atomic.Int32 // reset mails queued
	worker *ResetWorker
}

func newResetRig(t *testing.T) *resetRig {
	r := &resetRig{f: newFixture(t), now: time.Now().UTC()}
	r.worker = r.newWorker()
	return r
}

func (r *resetRig) newWorker() *ResetWorker {
	w := r.f.store.NewResetWorker(func(to, token string) mail.Message {
		return mail.Message{To: to, Subject: "Reset", Text: token}
	}, func() { r.mails.Add(1) }, slog.New(slog.DiscardHandler))
	w.Now = func() time.Time { return r.now }
	return w
}

func (r *resetRig) request(t *testing.T, email string, n int) {
	t.Helper()
	for range n {
		if err := r.f.store.RequestReset(context.Background(), email, r.now); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.worker.HandleAll(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// queuedMails counts the reset mails in the outbox.
func (r *resetRig) queuedMails(t *testing.T) int {
	t.Helper()
	var n int
	if err := r.f.pool.QueryRow(context.Background(), `SELECT count(*) FROM mail_outbox WHERE kind = 'reset'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func (r *resetRig) outcomes(t *testing.T) map[string]int {
	t.Helper()
	rows, err := r.f.pool.Query(context.Background(), `SELECT coalesce(outcome, 'waiting'), count(*) FROM password_reset_requests GROUP BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var o string
		var n int
		if err := rows.Scan(&o, &n); err != nil {
			t.Fatal(err)
		}
		out[o] = n
	}
	return out
}

func TestResetMailFloodSendsOneAMinuteAndAFewAnHour(t *testing.T) {
	r := newResetRig(t)
	r.request(t, "seller@example.com", 16)
	if n := r.mails.Load(); n != 1 {
		t.Fatalf("16 requests within a second sent %d mails, want 1", n)
	}
	// A look-alike of the same address counts against the same limit.
	r.request(t, "ＳＥＬＬＥＲ@example.com", 1)
	if n := r.mails.Load(); n != 1 {
		t.Fatalf("a full-width look-alike sent another mail (%d)", n)
	}
	for i := 2; i <= ResetMailsPerHour+3; i++ {
		r.now = r.now.Add(ResetMailInterval + time.Second)
		r.request(t, "seller@example.com", 2)
	}
	if n := r.mails.Load(); n != ResetMailsPerHour {
		t.Fatalf("an hour of requests sent %d mails, want %d", n, ResetMailsPerHour)
	}
	r.now = r.now.Add(time.Hour)
	r.request(t, "seller@example.com", 1)
	if n := r.mails.Load(); n != ResetMailsPerHour+1 {
		t.Fatalf("an hour later: %d mails", n)
	}
	r.request(t, "nobody@example.com", 3)
	got := r.outcomes(t)
	if got[ResetNoAccount] != 3 || got["waiting"] != 0 || got[ResetMailed] != ResetMailsPerHour+1 || r.queuedMails(t) != ResetMailsPerHour+1 {
		t.Fatalf("outcomes = %v", got)
	}
}

// Two workers (two API processes) over one burst still send one mail.
func TestResetWorkersShareTheLimit(t *testing.T) {
	r := newResetRig(t)
	ctx := context.Background()
	for range 20 {
		if err := r.f.store.RequestReset(ctx, "seller@example.com", r.now); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for _, w := range []*ResetWorker{r.worker, r.newWorker(), r.newWorker()} {
		wg.Go(func() {
			if _, err := w.HandleAll(ctx); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := r.queuedMails(t); n != 1 {
		t.Fatalf("three workers queued %d mails, want 1", n)
	}
	if got := r.outcomes(t); got[ResetLimited] != 19 {
		t.Fatalf("outcomes = %v", got)
	}
}
