package command

import (
	"context"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/catalog"
	"github.com/a2e-automation/app/internal/payments"
)

// The four development commands, through the simulated provider on real
// PostgreSQL: a pack confirmed, refunded in part, disputed and won; a
// subscription renewed by AdvanceSimulatedCycle with the default outcome.
func TestSimulatedPaymentCommands(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	r := e.verified("simulated@example.com")
	credits := int64(catalog.MinCustomCredits)
	p, err := e.cmd.PurchaseCredits.Handle(ctx, PurchaseCredits{AccountID: r.AccountID, Credits: credits})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.cmd.ConfirmSimulatedPayment.Handle(ctx, ConfirmSimulatedPayment{AccountID: r.AccountID, ClientSecret: p.ClientSecret, Outcome: "maybe"})
	wantCode(t, err, domain.CodeInvalid)
	sim, err := e.cmd.ConfirmSimulatedPayment.Handle(ctx, ConfirmSimulatedPayment{AccountID: r.AccountID, ClientSecret: p.ClientSecret, Outcome: payments.OutcomeSucceeded})
	if err != nil || sim.Status != payments.OutcomeSucceeded || sim.Outcome.Result.LastPosition == 0 {
		t.Fatalf("confirm: %+v, %v", sim, err)
	}
	if b := e.account(r.AccountID).Balance(e.now()); b != credits {
		t.Fatalf("balance %d after payment, want %d", b, credits)
	}
	half := credits / 2
	sim, err = e.cmd.RefundSimulatedPayment.Handle(ctx, RefundSimulatedPayment{AccountID: r.AccountID, ClientSecret: p.ClientSecret, Credits: &half})
	if err != nil || sim.Status != domain.PaymentPartiallyRefunded {
		t.Fatalf("refund: %+v, %v", sim, err)
	}
	if b := e.account(r.AccountID).Balance(e.now()); b != credits-half {
		t.Fatalf("balance %d after refunding %d, want %d", b, half, credits-half)
	}
	_, err = e.cmd.DisputeSimulatedPayment.Handle(ctx, DisputeSimulatedPayment{AccountID: r.AccountID, ClientSecret: p.ClientSecret, Status: payments.DisputeWon})
	wantCode(t, err, domain.CodeConflict) // none open yet
	if sim, err = e.cmd.DisputeSimulatedPayment.Handle(ctx, DisputeSimulatedPayment{AccountID: r.AccountID, ClientSecret: p.ClientSecret, Status: payments.DisputeOpened}); err != nil || !e.account(r.AccountID).SpendingFrozen() {
		t.Fatalf("dispute opened: %+v, %v; frozen %v", sim, err, e.account(r.AccountID).SpendingFrozen())
	}
	if sim, err = e.cmd.DisputeSimulatedPayment.Handle(ctx, DisputeSimulatedPayment{AccountID: r.AccountID, ClientSecret: p.ClientSecret, Status: payments.DisputeWon}); err != nil || e.account(r.AccountID).SpendingFrozen() {
		t.Fatalf("dispute won: %+v, %v", sim, err)
	}

	s := e.subscribed("renewing@example.com")
	end := e.account(s.AccountID).PeriodEnd()
	if sim, err = e.cmd.AdvanceSimulatedCycle.Handle(ctx, AdvanceSimulatedCycle{AccountID: s.AccountID}); err != nil || sim.Status != payments.OutcomeSucceeded {
		t.Fatalf("advance: %+v, %v", sim, err)
	}
	if next := e.account(s.AccountID).PeriodEnd(); end == nil || next == nil || !next.After(*end) {
		t.Fatalf("period end %v after renewal, was %v", next, end)
	}
	if n := e.events(s.AccountID)["CreditsGranted"]; n != 2 {
		t.Fatalf("%d CreditsGranted events after one renewal, want 2", n)
	}
}
