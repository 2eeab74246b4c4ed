package command

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

func TestAdjustCreditsGrantsAndDebitsWithAnAuditLine(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	seller := e.register("adjusted@example.com")
	staff := e.register("adjuster@example.com")
	ctx := context.Background()
	adj := func(credits int64, key string) (Adjusted, error) {
		return e.cmd.AdjustCredits.Handle(ctx, AdjustCredits{StaffID: staff.AccountID, AccountID: seller.AccountID, Credits: credits,
			Reason: "  goodwill  ", IdempotencyKey: key, RequestHash: key, RequestID: "req-" + key,
			Metadata: eventstore.Metadata{Actor: StaffActor(staff.AccountID)}})
	}
	got, err := adj(10, "grant")
	if err != nil || got.Balance != 10 || got.Replayed || got.Position == 0 {
		t.Fatalf("grant: %+v, %v", got, err)
	}
	if got, err := adj(-4, "debit"); err != nil || got.Balance != 6 {
		t.Fatalf("debit: %+v, %v", got, err)
	}
	// A debit never takes the balance below zero.
	_, err = adj(-7, "overdraw")
	wantCode(t, err, domain.CodeInsufficientCredits)
	if b := e.account(seller.AccountID).Balance(e.now()); b != 6 {
		t.Fatalf("balance %d, want 6", b)
	}
	if n := e.count(`SELECT count(*) FROM staff_audit WHERE actor_id = $1 AND account_id = $2 AND action = $3 AND detail LIKE '%: goodwill'`,
		staff.AccountID, seller.AccountID, "account.adjustment"); n != 2 {
		t.Fatalf("%d audit lines, want 2", n)
	}
}

func TestAdjustCreditsRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	seller := e.register("refused@example.com")
	staff := e.register("staff-refuser@example.com")
	ctx := context.Background()
	for _, c := range []struct {
		name string
		cmd  AdjustCredits
		code domain.Code
	}{
		{"own account", AdjustCredits{StaffID: staff.AccountID, AccountID: staff.AccountID, Credits: 5, Reason: "me"}, domain.CodeForbidden},
		{"zero credits", AdjustCredits{StaffID: staff.AccountID, AccountID: seller.AccountID, Credits: 0, Reason: "none"}, domain.CodeInvalid},
		{"blank reason", AdjustCredits{StaffID: staff.AccountID, AccountID: seller.AccountID, Credits: 5, Reason: "   "}, domain.CodeInvalid},
	} {
		_, err := e.cmd.AdjustCredits.Handle(ctx, c.cmd)
		if domain.ErrorCode(err) != c.code {
			t.Errorf("%s: %v, want code %q", c.name, err, c.code)
		}
	}
	if n := e.count(`SELECT count(*) FROM staff_audit`); n != 0 {
		t.Fatalf("%d audit lines for refused adjustments", n)
	}
	if n := e.count(`SELECT count(*) FROM events WHERE event_type IN ('CreditsGranted', 'CreditsDebited')`); n != 0 {
		t.Fatalf("%d credit events for refused adjustments", n)
	}
}

func TestAdjustCreditsSameKeyConcurrentlyAppliesOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	seller := e.register("once-adjusted@example.com")
	staff := e.register("once-adjuster@example.com")
	ctx := context.Background()
	cmd := AdjustCredits{StaffID: staff.AccountID, AccountID: seller.AccountID, Credits: 25, Reason: "refund by hand",
		IdempotencyKey: "adj-1", RequestHash: "h1"}
	const n = 8
	var wg sync.WaitGroup
	res := make([]Adjusted, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { res[i], errs[i] = e.cmd.AdjustCredits.Handle(ctx, cmd) })
	}
	wg.Wait()
	replays := 0
	for i := range n {
		if errs[i] != nil || res[i].Balance != 25 {
			t.Fatalf("call %d: %+v, %v", i, res[i], errs[i])
		}
		if res[i].Replayed {
			replays++
		}
	}
	if replays != n-1 {
		t.Fatalf("%d replays of %d calls, want %d", replays, n, n-1)
	}
	if b := e.account(seller.AccountID).Balance(e.now()); b != 25 {
		t.Fatalf("balance %d, want 25", b)
	}
	if c := e.count(`SELECT count(*) FROM staff_audit`); c != 1 {
		t.Fatalf("%d audit lines, want 1", c)
	}
	other := cmd
	other.Credits, other.RequestHash = 50, "h2"
	if _, err := e.cmd.AdjustCredits.Handle(ctx, other); !errors.Is(err, eventstore.ErrIdempotencyKeyReused) {
		t.Fatalf("same key, other request: %v", err)
	}
}
