package command

import (
	"context"
	"testing"

	"github.com/a2e-automation/app/domain"
)

func TestResumeSubscriptionUndoesACancellation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.subscribed("resume@example.com")
	ctx := context.Background()
	// Nothing to resume while active.
	_, err := e.cmd.ResumeSubscription.Handle(ctx, SellerSubscription{AccountID: r.AccountID})
	wantCode(t, err, domain.CodeConflict)
	if _, err := e.cmd.CancelSubscription.Handle(ctx, SellerSubscription{AccountID: r.AccountID}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cmd.ResumeSubscription.Handle(ctx, SellerSubscription{AccountID: r.AccountID}); err != nil {
		t.Fatal(err)
	}
	if st := e.account(r.AccountID).SubscriptionStatusAt(e.now()); st != domain.StatusActive {
		t.Fatalf("status %q after resume", st)
	}
	if n := e.events(r.AccountID)["SubscriptionResumed"]; n != 1 {
		t.Fatalf("%d SubscriptionResumed events", n)
	}
}
