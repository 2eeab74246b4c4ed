package command

import (
	"context"
	"testing"
	"time"
)

func TestExpireCreditsExpiresDueGrantsOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	due := e.register("due@example.com")
	later := e.register("later@example.com")
	soon, far := e.now().Add(time.Hour), e.now().Add(48*time.Hour)
	e.grant(due.AccountID, 5, &soon)
	e.grant(due.AccountID, 2, nil)
	e.grant(later.AccountID, 3, &far)

	if n, err := e.cmd.ExpireCredits.Handle(ctx, ExpireCredits{Limit: 10}); err != nil || n != 0 {
		t.Fatalf("before any expiry: visited %d, %v", n, err)
	}
	e.advance(2 * time.Hour)
	n, err := e.cmd.ExpireCredits.Handle(ctx, ExpireCredits{Limit: 10})
	if err != nil || n != 1 {
		t.Fatalf("visited %d, %v; want 1", n, err)
	}
	if ev := e.events(due.AccountID); ev["CreditsExpired"] != 1 {
		t.Fatalf("due account's events %v", ev)
	}
	if b := e.account(due.AccountID).Balance(e.now()); b != 2 {
		t.Fatalf("balance %d after expiry, want 2", b)
	}
	if ev := e.events(later.AccountID); ev["CreditsExpired"] != 0 {
		t.Fatalf("a grant not yet due expired: %v", ev)
	}
	// A second run finds nothing left.
	if n, err := e.cmd.ExpireCredits.Handle(ctx, ExpireCredits{Limit: 10}); err != nil || n != 0 {
		t.Fatalf("second run visited %d, %v", n, err)
	}
	if ev := e.events(due.AccountID); ev["CreditsExpired"] != 1 {
		t.Fatalf("expired twice: %v", ev)
	}
}

func TestExpireCreditsVisitsAtMostLimitAccounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	exp := e.now().Add(time.Minute)
	for _, email := range []string{"a@example.com", "b@example.com", "c@example.com"} {
		e.grant(e.register(email).AccountID, 1, &exp)
	}
	e.advance(time.Hour)
	if n, err := e.cmd.ExpireCredits.Handle(ctx, ExpireCredits{Limit: 2}); err != nil || n != 2 {
		t.Fatalf("first batch %d, %v; want 2", n, err)
	}
	if n, err := e.cmd.ExpireCredits.Handle(ctx, ExpireCredits{Limit: 2}); err != nil || n != 1 {
		t.Fatalf("second batch %d, %v; want 1", n, err)
	}
	if n := e.count(`SELECT count(*) FROM events WHERE event_type = 'CreditsExpired'`); n != 3 {
		t.Fatalf("%d CreditsExpired events, want 3", n)
	}
}
