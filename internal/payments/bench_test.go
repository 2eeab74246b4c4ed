package payments_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// BenchmarkPurchase measures buying a credit pack end to end through the
// simulated provider (checkout, then the payment confirmed and its webhook
// applied) on an account of a handful of events and on one with 100,000
// more: no step of a purchase may replay the stream, so the long one costs
// what the short one does (target: within 1.2x). events-before is the
// stream's length when timing starts.
func BenchmarkPurchase(b *testing.B) {
	for _, extra := range []int{0, 100_000} {
		b.Run(fmt.Sprintf("extra-events=%d", extra), func(b *testing.B) {
			pool := testdb.New(b)
			repo := accounts.NewRepository(eventstore.New(pool), nil)
			svc := payments.NewService(pool, repo, payments.NewSimulated(), webhookSecret, slog.New(slog.DiscardHandler))
			cmds := command.New(command.Deps{Accounts: repo, Payments: svc})
			buy := cmds.PurchaseCredits
			ctx := context.Background()
			keys, err := apikeys.New(config.DevelopmentSecret)
			if err != nil {
				b.Fatal(err)
			}
			seller, err := repo.Register(ctx, keys, "bench@example.com", "not-a-real-hash", eventstore.Metadata{Actor: "bench"})
			if err != nil {
				b.Fatal(err)
			}
			id := seller.AccountID
			accountstest.Do(b, repo, id, func(a *domain.Account, now time.Time) error { return a.VerifyEmail(now) })
			accountstest.Do(b, repo, id, accountstest.Grant(1_000_000, domain.SourcePurchase, nil))
			if extra > 0 {
				accountstest.FillHistory(b, repo, id, extra)
			}
			md := eventstore.Metadata{Actor: "bench"}
			purchase := func() {
				p, err := buy.Handle(ctx, command.PurchaseCredits{AccountID: id, Credits: 100})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := cmds.ConfirmSimulatedPayment.Handle(ctx, command.ConfirmSimulatedPayment{AccountID: id, ClientSecret: p.ClientSecret, Outcome: payments.OutcomeSucceeded, Metadata: md}); err != nil {
					b.Fatal(err)
				}
			}
			purchase() // the first command after raw appends refreshes the snapshot
			v, err := repo.Store().StreamVersion(ctx, domain.StreamID(id))
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				purchase()
			}
			b.ReportMetric(float64(v), "events-before")
		})
	}
}
