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

// BenchmarkFromSnapshotBehind measures reading an account whose saved
// snapshot is lag events behind its head (what a spend that misses the
// cache pays, and FromSnapshot's readers): the snapshot row, the tail's
// round trip when there is one, its decoding and replay. It sizes
// snapshotEvery: the tail is at most snapshotEvery-1 events.
func BenchmarkFromSnapshotBehind(b *testing.B) {
	for _, lag := range []int{0, 1, 15, 31} {
		b.Run(fmt.Sprintf("lag=%d", lag), func(b *testing.B) {
			r, _ := newRepo(b)
			id := accountstest.Register(b, r)
			accountstest.Do(b, r, id, accountstest.Grant(1_000_000, domain.SourcePurchase, nil))
			ctx := context.Background()
			for range lag + 1 { // the first misses and writes the snapshot
				if _, err := r.Spend(ctx, id, eventstore.UpdateOptions{}, func(_ context.Context, _ eventstore.Querier, a *domain.Account, now time.Time) (any, error) {
					return nil, a.Spend(domain.OperationAPIRequest, "", now)
				}); err != nil {
					b.Fatal(err)
				}
			}
			snap, err := r.Store().Snapshot(ctx, domain.StreamID(id))
			if err != nil || snap.Version-snap.StateVersion != int64(lag) {
				b.Fatalf("lag %d, want %d (%v)", snap.Version-snap.StateVersion, lag, err)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := r.FromSnapshot(ctx, id); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
