package command

// Balance alerts (issue 33) on a real database and a real SMTP server: the
// settings' rules, one mail per crossing however many spends cross at once
// through two "processes" (one with the group commit), the recovery note,
// the expiry reminder by the expiry sweeper, and nothing sent again by a
// projector rebuild.

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/projections"
)

// alertEnv is newEnv with the alerts mailed as cmd/api mails them.
func alertEnv(t *testing.T) *env {
	return newEnvWith(t, func(r *accounts.Repository) {
		r.UseAlerts(accounts.AlertMails("Test Product", "http://localhost:8080"))
	})
}

// mailsTo delivers the outbox and returns the subjects mailed to addr.
func (e *env) mailsTo(addr string) []string {
	e.t.Helper()
	if _, err := e.sender.DeliverDue(context.Background()); err != nil {
		e.t.Fatal(err)
	}
	var subjects []string
	for _, m := range e.smtp.To(addr) {
		for line := range strings.SplitSeq(m, "\n") {
			if s, ok := strings.CutPrefix(strings.TrimSpace(line), "Subject: "); ok {
				subjects = append(subjects, s)
			}
		}
	}
	return subjects
}

func countContaining(subjects []string, part string) int {
	n := 0
	for _, s := range subjects {
		if strings.Contains(s, part) {
			n++
		}
	}
	return n
}

func TestSetAlertsRefusesBadSettingsAndUnverifiedAccounts(t *testing.T) {
	t.Parallel()
	e := alertEnv(t)
	ctx := context.Background()
	un := e.register("unverified-alerts@example.com")
	_, err := e.cmd.SetAlerts.Handle(ctx, SetAlerts{AccountID: un.AccountID, Settings: domain.AlertSettings{LowBalanceCredits: ptr(int64(5))}})
	if err != domain.ErrAlertsNeedVerifiedEmail {
		t.Fatalf("unverified: %v, want ErrAlertsNeedVerifiedEmail", err)
	}
	v := e.verified("verified-alerts@example.com")
	for _, bad := range []domain.AlertSettings{
		{LowBalanceCredits: ptr(int64(-1))},
		{LowBalanceCredits: ptr(int64(10_000_001))},
		{ExpiringReminderDays: ptr(0)},
		{ExpiringReminderDays: ptr(31)},
	} {
		_, err := e.cmd.SetAlerts.Handle(ctx, SetAlerts{AccountID: v.AccountID, Settings: bad})
		wantCode(t, err, domain.CodeInvalid)
	}
	if ev := e.events(v.AccountID); ev["AlertSettingsChanged"] != 0 {
		t.Fatalf("refused settings recorded %v", ev)
	}
	want := domain.AlertSettings{LowBalanceCredits: ptr(int64(10_000_000)), ExpiringReminderDays: ptr(30)}
	if _, err := e.cmd.SetAlerts.Handle(ctx, SetAlerts{AccountID: v.AccountID, Settings: want}); err != nil {
		t.Fatal(err)
	}
	got := e.account(v.AccountID).Alerts()
	if *got.LowBalanceCredits != 10_000_000 || *got.ExpiringReminderDays != 30 {
		t.Fatalf("settings %+v", got)
	}
}

// 16 spends cross the threshold together, 8 through a plain repository and
// 8 through another with the group commit (two API processes): one mail.
// A grant back above the threshold sends one recovery note; a projector
// rebuild sends nothing; the next crossing mails again.
func TestLowBalanceAlertMailsOncePerCrossingUnderConcurrency(t *testing.T) {
	t.Parallel()
	e := alertEnv(t)
	ctx := context.Background()
	r := e.verified("crossing@example.com")
	e.grant(r.AccountID, 20, nil)
	if _, err := e.cmd.SetAlerts.Handle(ctx, SetAlerts{AccountID: r.AccountID,
		Settings: domain.AlertSettings{LowBalanceCredits: ptr(int64(10))}}); err != nil {
		t.Fatal(err)
	}

	e.spendTogether(r, e.secondProcess(), 16)
	a := e.account(r.AccountID)
	if a.Balance(e.now()) != 4 || !a.LowBalance() {
		t.Fatalf("balance %d, low %v; want 4 and true", a.Balance(e.now()), a.LowBalance())
	}
	if ev := e.events(r.AccountID); ev["LowBalanceAlerted"] != 1 {
		t.Fatalf("events %v, want one LowBalanceAlerted", ev)
	}
	subjects := e.mailsTo(r.Email)
	if countContaining(subjects, "running low: 9 credits left") != 1 || countContaining(subjects, "running low") != 1 {
		t.Fatalf("mails %q, want one low-balance mail with 9 credits left (the crossing spend's)", subjects)
	}

	// Back above: one recovery note.
	e.grant(r.AccountID, 10, nil)
	subjects = e.mailsTo(r.Email)
	if countContaining(subjects, "have recovered: 14 credits available") != 1 {
		t.Fatalf("mails %q, want one recovery note", subjects)
	}

	// The read side says so, and a rebuild sends nothing again.
	proj := projections.NewProjector(e.pool, e.repo.Store(), slog.New(slog.DiscardHandler), projections.All()...)
	if err := proj.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	outbox := e.count(`SELECT count(*) FROM mail_outbox`)
	for _, name := range proj.Names() {
		if err := proj.Rebuild(ctx, name, 5); err != nil {
			t.Fatal(err)
		}
	}
	if got := e.count(`SELECT count(*) FROM mail_outbox`); got != outbox {
		t.Fatalf("outbox rows %d after the rebuild, %d before", got, outbox)
	}
	if got := e.mailsTo(r.Email); len(got) != len(subjects) {
		t.Fatalf("mails after the rebuild %q, before %q", got, subjects)
	}
	p, err := projections.NewReader(e.pool).Profile(ctx, r.AccountID)
	if err != nil || p.LowBalance || p.CreditsAvailable != 14 {
		t.Fatalf("profile %+v, %v; want lowBalance false and 14 credits", p, err)
	}
	s, err := projections.NewReader(e.pool).AlertSettings(ctx, r.AccountID)
	if err != nil || s.LowBalanceCredits == nil || *s.LowBalanceCredits != 10 || s.ExpiringReminderDays != nil {
		t.Fatalf("alert settings %+v, %v", s, err)
	}

	// The next crossing mails again.
	for range 5 {
		if _, err := e.cmd.CreateListing.Handle(ctx, CreateListing{Spend: e.spend(r, ""), Product: testProduct}); err != nil {
			t.Fatal(err)
		}
	}
	if got := countContaining(e.mailsTo(r.Email), "running low"); got != 2 {
		t.Fatalf("%d low-balance mails after the second crossing, want 2", got)
	}
	if err := proj.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if p, _ := projections.NewReader(e.pool).Profile(ctx, r.AccountID); !p.LowBalance {
		t.Fatalf("profile %+v: lowBalance false after the second crossing", p)
	}
}

// The expiry sweeper visits an account when its reminder is due and
// records it once: one mail per cycle.
func TestExpiryReminderBySweeperOncePerCycle(t *testing.T) {
	t.Parallel()
	e := alertEnv(t)
	e.sender.Now = e.now // the mail is queued at the moved clock's time
	ctx := context.Background()
	r := e.verified("reminder@example.com")
	expires := e.now().Add(10 * 24 * time.Hour)
	accountstest.Do(t, e.repo, r.AccountID, accountstest.Grant(500, domain.SourceMonthly, &expires))
	if _, err := e.cmd.SetAlerts.Handle(ctx, SetAlerts{AccountID: r.AccountID,
		Settings: domain.AlertSettings{ExpiringReminderDays: ptr(3)}}); err != nil {
		t.Fatal(err)
	}
	sweep := func() {
		t.Helper()
		if _, err := e.cmd.ExpireCredits.Handle(ctx, ExpireCredits{Limit: 100}); err != nil {
			t.Fatal(err)
		}
	}
	e.advance(6 * 24 * time.Hour) // 4 days before: not yet
	sweep()
	if got := countContaining(e.mailsTo(r.Email), "monthly credits expire"); got != 0 {
		t.Fatalf("%d reminders 4 days before, want 0", got)
	}
	e.advance(25 * time.Hour) // under 3 days before
	sweep()
	sweep()
	subjects := e.mailsTo(r.Email)
	if countContaining(subjects, "500 credits of your Test Product monthly credits expire on") != 1 {
		t.Fatalf("mails %q, want one reminder", subjects)
	}
	if ev := e.events(r.AccountID); ev["ExpiryReminderSent"] != 1 {
		t.Fatalf("events %v", ev)
	}
}

func ptr[T any](v T) *T { return &v }
