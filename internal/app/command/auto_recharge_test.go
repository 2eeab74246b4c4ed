package command

// Auto-recharge (issue 33 item 2) on a real database, the simulated
// provider and a real SMTP server: the card saved through the simulated
// SetupIntent, one recharge however many spends cross together (two
// "processes", one with the group commit), credits granted only when the
// payment is reported paid, the monthly limit, three declines turning it
// off with a mail, and a payment needing authentication mailing its link
// and paid on the payment page.

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/staff"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/projections"
)

// rechargeEnv is newEnv with auto-recharge's mails as cmd/api sends them.
func rechargeEnv(t *testing.T) *env {
	return newEnvWith(t, func(r *accounts.Repository) {
		r.UseRechargeMail(accounts.RechargeMails("Test Product", "http://localhost:8080"))
	})
}

// saveCard saves a simulated card of r whose charges end as outcome says
// (payments.OutcomeSucceeded, SetupOutcomeChargeDeclines,
// SetupOutcomeNeedsAuth), through POST /api/account/payment-method's command
// and the development confirmation.
func (e *env) saveCard(r Registered, outcome string) {
	e.t.Helper()
	ctx := context.Background()
	co, err := e.cmd.SavePaymentMethod.Handle(ctx, SavePaymentMethod{AccountID: r.AccountID})
	if err != nil {
		e.t.Fatal(err)
	}
	sim, err := e.cmd.ConfirmSimulatedPayment.Handle(ctx, ConfirmSimulatedPayment{AccountID: r.AccountID, ClientSecret: co.ClientSecret, Outcome: outcome})
	if err != nil || sim.Status != payments.OutcomeSucceeded {
		e.t.Fatalf("confirm setup: %+v, %v", sim, err)
	}
}

// enableRecharge turns r's auto-recharge on: packs of 100 credits ($9.99)
// when below threshold, at most limit cents a month.
func (e *env) enableRecharge(r Registered, threshold, limit int64) {
	e.t.Helper()
	if _, _, err := e.cmd.SetAutoRecharge.Handle(context.Background(), SetAutoRecharge{AccountID: r.AccountID, Enabled: true,
		ThresholdCredits: threshold, PackCredits: 100, MonthlyLimitCents: limit}); err != nil {
		e.t.Fatal(err)
	}
}

// listing spends one credit of r.
func (e *env) listing(r Registered) error {
	_, err := e.cmd.CreateListing.Handle(context.Background(), CreateListing{Spend: e.spend(r, ""), Product: testProduct})
	return err
}

// runRecharges runs the recharge worker once and returns how many it charged.
func (e *env) runRecharges() int {
	e.t.Helper()
	n, err := e.cmd.RunRecharges.Handle(context.Background(), RunRecharges{Limit: 50})
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

func TestAutoRechargeSettingsRefuseBadInput(t *testing.T) {
	t.Parallel()
	e := rechargeEnv(t)
	ctx := context.Background()
	un := e.register("unverified-recharge@example.com")
	_, _, err := e.cmd.SetAutoRecharge.Handle(ctx, SetAutoRecharge{AccountID: un.AccountID, ThresholdCredits: 10, PackCredits: 100, MonthlyLimitCents: 5000})
	if err != domain.ErrAutoRechargeUnverified {
		t.Fatalf("unverified: %v", err)
	}
	_, err = e.cmd.SavePaymentMethod.Handle(ctx, SavePaymentMethod{AccountID: un.AccountID})
	if err != payments.ErrUnverified {
		t.Fatalf("card of an unverified account: %v", err)
	}
	r := e.verified("settings-recharge@example.com")
	_, _, err = e.cmd.SetAutoRecharge.Handle(ctx, SetAutoRecharge{AccountID: r.AccountID, Enabled: true, ThresholdCredits: 10, PackCredits: 100, MonthlyLimitCents: 5000})
	if err != domain.ErrNoPaymentMethod {
		t.Fatalf("on without a card: %v", err)
	}
	e.saveCard(r, payments.OutcomeSucceeded)
	for name, bad := range map[string]SetAutoRecharge{
		"pack not sold":      {ThresholdCredits: 10, PackCredits: 123, MonthlyLimitCents: 5000},
		"negative threshold": {ThresholdCredits: -1, PackCredits: 100, MonthlyLimitCents: 5000},
		"absurd threshold":   {ThresholdCredits: 10_000_001, PackCredits: 100, MonthlyLimitCents: 5000},
		"limit below a pack": {ThresholdCredits: 10, PackCredits: 100, MonthlyLimitCents: 998},
		"absurd limit":       {ThresholdCredits: 10, PackCredits: 100, MonthlyLimitCents: 10_000_001},
	} {
		bad.AccountID, bad.Enabled = r.AccountID, true
		if _, _, err := e.cmd.SetAutoRecharge.Handle(ctx, bad); domain.ErrorCode(err) != domain.CodeInvalid {
			t.Fatalf("%s: %v, want invalid", name, err)
		}
	}
	if ev := e.events(r.AccountID); ev["AutoRechargeSet"] != 0 || ev["PaymentMethodSaved"] != 1 {
		t.Fatalf("events %v", ev)
	}
	// Removing the card turns it off.
	e.enableRecharge(r, 10, 5000)
	if _, err := e.cmd.RemovePaymentMethod.Handle(ctx, RemovePaymentMethod{AccountID: r.AccountID}); err != nil {
		t.Fatal(err)
	}
	v := e.account(r.AccountID).AutoRecharge(e.now())
	if v.Enabled || v.Card != nil || v.DisabledReason != domain.RechargeDisabledPaymentMethod || e.count(`SELECT count(*) FROM payment_methods`) != 0 {
		t.Fatalf("after removing the card: %+v", v)
	}
}

// 16 spends cross the threshold together through two processes: one
// RechargeRequested, one outbox row, one charge; the credits arrive once,
// through the purchase path, and the transactions list names the recharge.
func TestAutoRechargeOneRechargeFor16ConcurrentSpends(t *testing.T) {
	t.Parallel()
	e := rechargeEnv(t)
	ctx := context.Background()
	r := e.verified("concurrent-recharge@example.com")
	e.grant(r.AccountID, 20, nil)
	e.saveCard(r, payments.OutcomeSucceeded)
	e.enableRecharge(r, 10, 5000)

	e.spendTogether(r, e.secondProcess(), 16)
	if ev := e.events(r.AccountID); ev["RechargeRequested"] != 1 {
		t.Fatalf("events %v, want one RechargeRequested", ev)
	}
	if got := e.count(`SELECT count(*) FROM recharge_requests WHERE account_id = $1`, r.AccountID); got != 1 {
		t.Fatalf("%d recharge requests, want 1", got)
	}
	if b := e.account(r.AccountID).Balance(e.now()); b != 4 {
		t.Fatalf("balance %d before the payment, want 4 (nothing granted yet)", b)
	}
	if got := e.runRecharges(); got != 1 {
		t.Fatalf("worker charged %d, want 1", got)
	}
	if got := e.runRecharges(); got != 0 {
		t.Fatalf("second run charged %d, want 0", got)
	}
	a := e.account(r.AccountID)
	if b := a.Balance(e.now()); b != 104 {
		t.Fatalf("balance %d after the recharge, want 104", b)
	}
	if v := a.AutoRecharge(e.now()); v.InFlight != "" || v.SpentThisMonth != 999 {
		t.Fatalf("after: %+v", v)
	}
	// The payment is a pack's: in payment_intents (refunds and disputes
	// find it), and named as a recharge in the transactions list.
	if got := e.count(`SELECT count(*) FROM payment_intents WHERE account_id = $1 AND kind = 'credits' AND status = 'succeeded'`, r.AccountID); got != 1 {
		t.Fatalf("%d paid payment_intents rows, want 1", got)
	}
	proj := projections.NewProjector(e.pool, e.repo.Store(), slog.New(slog.DiscardHandler), projections.All()...)
	if err := proj.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if got := e.count(`SELECT count(*) FROM transactions WHERE account_id = $1 AND description = 'Auto-recharge: 100 credits' AND status = 'paid'
		AND credits = 100 AND card_brand = 'visa' AND card_last4 = '4242'`, r.AccountID); got != 1 {
		t.Fatalf("%d recharge rows in transactions with the saved card for the receipt, want 1", got)
	}
	// The next crossing, after spending down again, recharges again.
	accountstest.Do(t, e.repo, r.AccountID, func(a *domain.Account, now time.Time) error { return a.Debit(94, "test", now) })
	if err := e.listing(r); err != nil {
		t.Fatal(err)
	}
	if ev := e.events(r.AccountID); ev["RechargeRequested"] != 2 {
		t.Fatalf("second crossing: %v", ev)
	}
}

// Packs of $9.99 and a limit of $19.98: two recharges in the month, the
// third crossing charges nothing.
func TestAutoRechargeMonthlyLimitIsNeverExceeded(t *testing.T) {
	t.Parallel()
	e := rechargeEnv(t)
	r := e.verified("capped-recharge@example.com")
	e.grant(r.AccountID, 11, nil)
	e.saveCard(r, payments.OutcomeSucceeded)
	e.enableRecharge(r, 10, 1998)
	for i := 1; i <= 3; i++ {
		if err := e.listing(r); err != nil { // 11 -> 10
			t.Fatal(err)
		}
		if err := e.listing(r); err != nil { // 10 -> 9: below
			t.Fatal(err)
		}
		e.runRecharges()
		b := e.account(r.AccountID).Balance(e.now())
		if i < 3 && b != 109 {
			t.Fatalf("crossing %d: balance %d, want 109", i, b)
		}
		if i == 3 && b != 9 {
			t.Fatalf("third crossing: balance %d, want 9 (the limit is reached)", b)
		}
		// Spend down to 11 again for the next crossing.
		if b > 11 {
			accountstest.Do(t, e.repo, r.AccountID, func(a *domain.Account, now time.Time) error { return a.Debit(b-11, "test", now) })
		}
	}
	if ev := e.events(r.AccountID); ev["RechargeRequested"] != 2 {
		t.Fatalf("events %v, want 2 recharges", ev)
	}
	if v := e.account(r.AccountID).AutoRecharge(e.now()); v.SpentThisMonth != 1998 || !v.Enabled {
		t.Fatalf("view %+v", v)
	}
}

// A card whose charges are declined: each crossing's charge fails and mails
// the seller; the third turns auto-recharge off and says so by mail. No
// credits are granted.
func TestAutoRechargeThreeDeclinesTurnItOffAndMail(t *testing.T) {
	t.Parallel()
	e := rechargeEnv(t)
	r := e.verified("declined-recharge@example.com")
	e.grant(r.AccountID, 13, nil)
	e.saveCard(r, payments.SetupOutcomeChargeDeclines)
	e.enableRecharge(r, 10, 5000)
	for i := 0; i < 3; i++ {
		if err := e.listing(r); err != nil {
			t.Fatal(err)
		}
	}
	// 13 -> 10 (not below); each spend below 10 requests one, declined.
	for i := 1; i <= 3; i++ {
		if err := e.listing(r); err != nil {
			t.Fatal(err)
		}
		if got := e.runRecharges(); got != 1 {
			t.Fatalf("attempt %d: charged %d", i, got)
		}
	}
	ev := e.events(r.AccountID)
	if ev["RechargeRequested"] != 3 || ev["RechargeFailed"] != 3 || ev["AutoRechargeDisabled"] != 1 || ev["CreditsGranted"] != 1 {
		t.Fatalf("events %v", ev)
	}
	if err := e.listing(r); err != nil {
		t.Fatal(err)
	}
	if ev := e.events(r.AccountID); ev["RechargeRequested"] != 3 {
		t.Fatalf("a recharge after it turned off: %v", ev)
	}
	v := e.account(r.AccountID).AutoRecharge(e.now())
	if v.Enabled || v.DisabledReason != domain.RechargeDisabledFailures || v.SpentThisMonth != 0 {
		t.Fatalf("view %+v", v)
	}
	// The staff console shows the setting as it stands and its history.
	sv, err := staff.NewConsole(e.pool, e.repo, testSecret).Account(context.Background(), r.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	ar := sv.Settings.AutoRecharge
	if ar.Enabled || ar.DisabledReason != domain.RechargeDisabledFailures || ar.PaymentMethod == nil || ar.PaymentMethod.Last4 != "0341" ||
		ar.PackCredits != 100 || ar.MonthlyLimitCents != 5000 {
		t.Fatalf("staff view %+v", ar)
	}
	kinds := map[string]int{}
	for _, c := range sv.Settings.History {
		kinds[c.Type]++
		if c.Description == "" || c.Description == c.Type {
			t.Fatalf("undescribed change %+v", c)
		}
	}
	if kinds["AutoRechargeSet"] != 1 || kinds["PaymentMethodSaved"] != 1 || kinds["RechargeFailed"] != 3 || kinds["AutoRechargeDisabled"] != 1 {
		t.Fatalf("staff history %v", kinds)
	}
	subjects := e.mailsTo(r.Email)
	if countContaining(subjects, "auto-recharge payment failed") != 3 || countContaining(subjects, "Auto-recharge of your Test Product credits is turned off") != 1 {
		t.Fatalf("mails %q", subjects)
	}
}

// A card that needs 3-D Secure off session: no credits, a mail with the
// payment page's link, no second recharge while it waits; paid on the page
// (the simulated confirmation of its client secret), the credits arrive.
func TestAutoRechargeNeedingAuthenticationMailsTheLink(t *testing.T) {
	t.Parallel()
	e := rechargeEnv(t)
	ctx := context.Background()
	r := e.verified("sca-recharge@example.com")
	e.grant(r.AccountID, 10, nil)
	e.saveCard(r, payments.SetupOutcomeNeedsAuth)
	e.enableRecharge(r, 10, 5000)
	if err := e.listing(r); err != nil {
		t.Fatal(err)
	}
	e.runRecharges()
	if err := e.listing(r); err != nil {
		t.Fatal(err)
	}
	ev := e.events(r.AccountID)
	if ev["RechargeRequested"] != 1 || ev["RechargeNeedsAction"] != 1 || ev["RechargeFailed"] != 0 {
		t.Fatalf("events %v", ev)
	}
	if b := e.account(r.AccountID).Balance(e.now()); b != 8 {
		t.Fatalf("balance %d, want 8", b)
	}
	subjects := e.mailsTo(r.Email)
	if countContaining(subjects, "Confirm your Test Product auto-recharge payment") != 1 {
		t.Fatalf("mails %q", subjects)
	}
	msgs := e.smtp.To(r.Email)
	found := false
	for _, m := range msgs {
		if strings.Contains(m, "http://localhost:8080/dashboard#auto-recharge") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no payment link in %q", msgs)
	}
	pay, err := e.cmd.ConfirmRechargePayment.Handle(ctx, ConfirmRechargePayment{AccountID: r.AccountID})
	if err != nil || pay.Credits != 100 || pay.AmountCents != 999 || pay.ClientSecret == "" {
		t.Fatalf("payment to confirm %+v, %v", pay, err)
	}
	secret := pay.ClientSecret
	if _, err := e.cmd.ConfirmSimulatedPayment.Handle(ctx, ConfirmSimulatedPayment{AccountID: r.AccountID, ClientSecret: secret, Outcome: payments.OutcomeSucceeded}); err != nil {
		t.Fatal(err)
	}
	a := e.account(r.AccountID)
	if b := a.Balance(e.now()); b != 108 {
		t.Fatalf("balance %d after paying, want 108", b)
	}
	if v := a.AutoRecharge(e.now()); v.AwaitingAction != "" {
		t.Fatalf("still waiting: %+v", v)
	}
	if _, err := e.cmd.ConfirmRechargePayment.Handle(ctx, ConfirmRechargePayment{AccountID: r.AccountID}); err != ErrNoRechargeToConfirm {
		t.Fatalf("nothing waits now: %v", err)
	}
}
