package command

// The reach of a spend limit (SpendLimitReached, the spend_limit.reached
// webhook): recorded once per period after the first refused spend, never
// by the refusal itself, on the real database.

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/webhooks"
)

// reached returns r's SpendLimitReached events, in order.
func (e *env) reached(id string) []domain.SpendLimitReached {
	e.t.Helper()
	h, err := e.repo.History(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []domain.SpendLimitReached
	for _, r := range h {
		if ev, ok := r.Event.(domain.SpendLimitReached); ok {
			out = append(out, ev)
		}
	}
	return out
}

// 16 spends at once against a daily limit of 10, half of them through a
// second API process's group commit: 10 charged, 6 refused with the same
// 402 as before, exactly one SpendLimitReached in the stream and one mail.
func TestSpendLimitReachedRecordedOnceUnderConcurrentSpends(t *testing.T) {
	t.Parallel()
	e := alertEnv(t)
	r := e.verified("reached-race@example.com")
	e.grant(r.AccountID, 20, nil)
	e.limits(r, new(int64(10)), nil)
	other := e.secondProcess() // set up as alertEnv sets e.repo
	ok, limited := e.spendAtOnce(r, 16, 10, e.cmd, other)
	if ok != 10 || limited != 6 {
		t.Fatalf("%d charged, %d refused; want 10 and 6", ok, limited)
	}
	got := e.reached(r.AccountID)
	if len(got) != 1 {
		t.Fatalf("%d SpendLimitReached, want 1: %+v", len(got), got)
	}
	day := e.now().UTC().Truncate(24 * time.Hour)
	if want := (domain.SpendLimitReached{Period: domain.SpendLimitDaily, Limit: 10, Spent: 10, ResetsAt: day.AddDate(0, 0, 1)}); !got[0].ResetsAt.Equal(want.ResetsAt) ||
		got[0].Period != want.Period || got[0].Limit != want.Limit || got[0].Spent != want.Spent {
		t.Fatalf("recorded %+v, want %+v", got[0], want)
	}
	// The refusals after it find it recorded, and record nothing more.
	_, err := e.cmd.CreateListing.Handle(context.Background(), CreateListing{Spend: e.spend(r, ""), Product: testProduct})
	var le *domain.SpendLimitError
	if !errors.As(err, &le) || !le.Noted {
		t.Fatalf("a later refusal: %v %+v, want one already noted", err, le)
	}
	if ev := e.events(r.AccountID); ev["SpendLimitReached"] != 1 || ev[spends] != 10 {
		t.Fatalf("events %v", ev)
	}
	if subjects := e.mailsTo(r.Email); countContaining(subjects, "daily spend limit of 10 credits is reached") != 1 {
		t.Fatalf("mails %q, want one spend limit mail", subjects)
	}
}

// A refused call's Idempotency-Key stays unused: with the limit raised,
// the same key runs afresh and is charged; the reach is recorded without
// the key. The next day the limit's reach is news again.
func TestSpendLimitReachedLeavesTheKeyUnusedAndComesBackNextDay(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	r := e.verified("reached-key@example.com")
	e.grant(r.AccountID, 20, nil)
	e.limits(r, new(int64(1)), nil)
	if _, err := e.cmd.CreateListing.Handle(ctx, CreateListing{Spend: e.spend(r, "first"), Product: testProduct}); err != nil {
		t.Fatal(err)
	}
	_, err := e.cmd.CreateListing.Handle(ctx, CreateListing{Spend: e.spend(r, "refused"), Product: testProduct})
	wantCode(t, err, domain.CodeSpendLimitReached)
	if n := len(e.reached(r.AccountID)); n != 1 {
		t.Fatalf("%d SpendLimitReached after the first refusal, want 1", n)
	}
	if n := e.count(`SELECT count(*) FROM events WHERE event_type = 'SpendLimitReached' AND metadata ? 'idempotencyKey'`); n != 0 {
		t.Fatalf("%d SpendLimitReached carry the refused call's key", n)
	}
	e.limits(r, new(int64(5)), nil)
	m, err := e.cmd.CreateListing.Handle(ctx, CreateListing{Spend: e.spend(r, "refused"), Product: testProduct})
	if err != nil || m.Replayed {
		t.Fatalf("the refused call's key after raising the limit: replayed %v, %v; want a fresh charge", m.Replayed, err)
	}
	if ev := e.events(r.AccountID); ev[spends] != 2 {
		t.Fatalf("events %v, want 2 spends", ev)
	}

	// The next UTC day: spend to the limit, and the first refusal records
	// the day's reach.
	now := e.now()
	e.advance(time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 1, 0, time.UTC).Sub(now))
	for range 5 {
		if _, err := e.cmd.CreateListing.Handle(ctx, CreateListing{Spend: e.spend(r, ""), Product: testProduct}); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		_, err = e.cmd.CreateListing.Handle(ctx, CreateListing{Spend: e.spend(r, ""), Product: testProduct})
		wantCode(t, err, domain.CodeSpendLimitReached)
	}
	got := e.reached(r.AccountID)
	if len(got) != 2 || got[1].Limit != 5 || got[1].Spent != 5 {
		t.Fatalf("SpendLimitReached %+v, want a second one of 5", got)
	}
}

// An endpoint subscribed to spend_limit.reached receives the reach once,
// signed, with its period, limit, spend and reset, however many spends
// were refused.
func TestWebhookSpendLimitReached(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	rc := newReceiver(t, always(http.StatusOK))
	r := e.verified("hooks-limit@example.com")
	e.grant(r.AccountID, 10, nil)
	ep := e.endpoint(r, rc.srv.URL+"/hooks", domain.WebhookSpendLimitReached)
	e.limits(r, nil, new(int64(2)))
	for i := range 5 {
		_, err := e.cmd.CreateListing.Handle(ctx, CreateListing{Spend: e.spend(r, ""), Product: testProduct})
		if i >= 2 {
			wantCode(t, err, domain.CodeSpendLimitReached)
		} else if err != nil {
			t.Fatal(err)
		}
	}
	w := e.hookWorker(webhooks.Options{})
	if n := work(t, w); n != 1 {
		t.Fatalf("attempts %d, want 1", n)
	}
	got := rc.requests()
	if len(got) != 1 || !verify(got[0].signature, got[0].body, ep.Secret) {
		t.Fatalf("received %d: %+v", len(got), got)
	}
	b := bodyOf(t, got[0].body)
	d := b.Data.(map[string]any)
	now := e.now().UTC()
	month := time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC).Format(time.RFC3339)
	if b.Type != "spend_limit.reached" || d["accountId"] != r.AccountID || d["period"] != "monthly" || d["limit"] != float64(2) ||
		d["spent"] != float64(2) || d["resetsAt"] != month {
		t.Fatalf("body %s, want the monthly limit of 2 resetting at %s", got[0].body, month)
	}
	if n := work(t, w); n != 0 {
		t.Fatalf("a second round attempted %d", n)
	}
}
