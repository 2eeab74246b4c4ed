package command

import (
	"context"
	"testing"

	"github.com/a2e-automation/app/domain"
)

func TestStaffCancelSubscriptionAtPeriodEnd(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	seller := e.subscribed("staff-cancelled@example.com")
	staff := e.register("staff-canceller@example.com")
	ctx := context.Background()
	cancel := StaffCancelSubscription{StaffID: staff.AccountID, AccountID: seller.AccountID, AtPeriodEnd: true,
		Reason: "asked by phone", RequestID: "req-cancel"}
	if _, err := e.cmd.StaffCancelSubscription.Handle(ctx, cancel); err != nil {
		t.Fatal(err)
	}
	// The simulated provider reports the cancellation at once.
	a := e.account(seller.AccountID)
	if st := a.SubscriptionStatusAt(e.now()); st != domain.StatusCancelling || !a.HasPremiumAccess(e.now()) {
		t.Fatalf("status %q, access %v", st, a.HasPremiumAccess(e.now()))
	}
	if n := e.count(`SELECT count(*) FROM staff_audit WHERE actor_id = $1 AND account_id = $2 AND request_id = 'req-cancel'
		AND detail = 'cancel at the period end: asked by phone'`, staff.AccountID, seller.AccountID); n != 1 {
		t.Fatalf("%d audit lines", n)
	}
	// Cancelling a cancelled subscription again is refused and records nothing more.
	_, err := e.cmd.StaffCancelSubscription.Handle(ctx, cancel)
	wantCode(t, err, domain.CodeConflict)
	if n := e.events(seller.AccountID)["SubscriptionCancelled"]; n != 1 {
		t.Fatalf("%d SubscriptionCancelled events, want 1", n)
	}
	if n := e.count(`SELECT count(*) FROM staff_audit`); n != 1 {
		t.Fatalf("%d audit lines, want 1", n)
	}
}

func TestStaffCancelSubscriptionRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	staff := e.subscribed("staff-self@example.com")
	seller := e.verified("no-subscription@example.com")
	ctx := context.Background()
	_, err := e.cmd.StaffCancelSubscription.Handle(ctx, StaffCancelSubscription{StaffID: staff.AccountID, AccountID: staff.AccountID,
		Reason: "mine"})
	wantCode(t, err, domain.CodeForbidden)
	if st := e.account(staff.AccountID).SubscriptionStatusAt(e.now()); st != domain.StatusActive {
		t.Fatalf("own subscription now %q", st)
	}
	_, err = e.cmd.StaffCancelSubscription.Handle(ctx, StaffCancelSubscription{StaffID: staff.AccountID, AccountID: seller.AccountID,
		Reason: "nothing to cancel"})
	wantCode(t, err, domain.CodeConflict)
	if n := e.count(`SELECT count(*) FROM staff_audit`); n != 0 {
		t.Fatalf("%d audit lines for refusals", n)
	}
}
