package command

import (
	"context"
	"errors"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/catalog"
	"github.com/a2e-automation/app/internal/payments"
)

// boughtCredits has r buy credits with the simulated provider and returns
// the payment's id.
func (e *env) boughtCredits(r Registered, credits int64) payments.Purchase {
	e.t.Helper()
	ctx := context.Background()
	p, err := e.cmd.PurchaseCredits.Handle(ctx, PurchaseCredits{AccountID: r.AccountID, Credits: credits})
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.cmd.ConfirmSimulatedPayment.Handle(ctx, ConfirmSimulatedPayment{AccountID: r.AccountID, ClientSecret: p.ClientSecret, Outcome: payments.OutcomeSucceeded}); err != nil {
		e.t.Fatal(err)
	}
	return p
}

func TestStaffRefundRevokesTheCreditsOnceWithOneAuditLine(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	seller := e.verified("refunded@example.com")
	staff := e.register("refunder@example.com")
	ctx := context.Background()
	credits := int64(catalog.MinCustomCredits)
	p := e.boughtCredits(seller, credits)
	refund := StaffRefund{StaffID: staff.AccountID, AccountID: seller.AccountID, PaymentID: p.PaymentIntentID,
		Reason: "charged by mistake", IdempotencyKey: payments.StaffRefundKeyPrefix + "k1", RequestID: "req-refund"}
	got, err := e.cmd.StaffRefund.Handle(ctx, refund)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != payments.StaffActionApplied || got.AmountCents != p.AmountCents || got.RefundID == "" {
		t.Fatalf("refund %+v, want %d cents applied", got, p.AmountCents)
	}
	if b := e.account(seller.AccountID).Balance(e.now()); b != 0 {
		t.Fatalf("balance %d after a full refund, want 0", b)
	}
	// The same key again answers the first refund and refunds nothing more.
	again, err := e.cmd.StaffRefund.Handle(ctx, refund)
	if err != nil || !again.Replayed || again.RefundID != got.RefundID {
		t.Fatalf("retry: %+v, %v", again, err)
	}
	if n := e.count(`SELECT count(*) FROM staff_audit WHERE actor_id = $1 AND account_id = $2 AND request_id = 'req-refund'`,
		staff.AccountID, seller.AccountID); n != 1 {
		t.Fatalf("%d audit lines, want 1", n)
	}
	// The same key with another amount is refused.
	one := int64(1)
	other := refund
	other.Credits = &one
	if _, err := e.cmd.StaffRefund.Handle(ctx, other); !errors.Is(err, eventstore.ErrIdempotencyKeyReused) {
		t.Fatalf("same key, other amount: %v", err)
	}
}

func TestStaffRefundOfTheStaffMembersOwnAccount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	staff := e.verified("self-refund@example.com")
	p := e.boughtCredits(staff, int64(catalog.MinCustomCredits))
	_, err := e.cmd.StaffRefund.Handle(context.Background(), StaffRefund{StaffID: staff.AccountID, AccountID: staff.AccountID,
		PaymentID: p.PaymentIntentID, Reason: "for me"})
	wantCode(t, err, domain.CodeForbidden)
	if b := e.account(staff.AccountID).Balance(e.now()); b != int64(catalog.MinCustomCredits) {
		t.Fatalf("balance %d after a refused refund", b)
	}
	if n := e.count(`SELECT count(*) FROM staff_audit`); n != 0 {
		t.Fatalf("%d audit lines", n)
	}
}
