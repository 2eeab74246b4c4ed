package accounts_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/accountstest"
)

// BenchmarkSpend measures one spend command on a fresh account (a handful of
// events) and on one with 100,000 more events: the cost must not grow with
// the stream's length (the command loads a snapshot, not the stream). The
// events-before metric is the stream's length when timing starts.
func BenchmarkSpend(b *testing.B) {
	for _, events := range []int{0, 100_000} {
		b.Run(fmt.Sprintf("extra-events=%d", events), func(b *testing.B) {
			r, _ := newRepo(b)
			id := accountstest.Register(b, r)
			accountstest.Do(b, r, id, accountstest.Grant(10_000_000, domain.SourcePurchase, nil))
			if events > 0 {
				accountstest.FillHistory(b, r, id, events)
			}
			ctx := context.Background()
			spend := func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
				return nil, a.Spend(domain.OperationAPIRequest, "", now)
			}
			// The first command after raw appends refreshes the snapshot.
			if _, err := r.Update(ctx, id, eventstore.UpdateOptions{}, spend); err != nil {
				b.Fatal(err)
			}
			v, _ := r.Store().StreamVersion(ctx, domain.StreamID(id))
			b.ResetTimer()
			for b.Loop() {
				if _, err := r.Update(ctx, id, eventstore.UpdateOptions{}, spend); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(v), "events-before")
		})
	}
}
