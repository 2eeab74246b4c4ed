package accounts_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
)

// BenchmarkSpend measures one spend command on a fresh account (a handful of
// events) and on one with 100,000 more events: the cost must not grow with
// the stream's length (the command loads a snapshot, not the stream). The
// events-before metric is the stream's length when timing starts.
func BenchmarkSpend(b *testing.B) {
	for _, events := range []int{0, 100_000} {
		b.Run(fmt.Sprintf("extra-events=%d", events), func(b *testing.B) {
			r, _ := newRepo(b)
			id := register(b, r)
			update(b, r, id, grant(10_000_000, domain.SourcePurchase, nil))
			if events > 0 {
				fillHistory(b, r, id, events)
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

// fillHistory appends n spend events, drawn from the account's grant so the
// history stays replayable, in large batches.
func fillHistory(b *testing.B, r *accounts.Repository, id string, n int) {
	b.Helper()
	ctx := context.Background()
	a, err := r.Load(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	grantID := a.Grants(time.Now())[0].ID
	typ, sv, data, err := domain.EncodeEvent(domain.CreditsSpent{Amount: 1, Operation: domain.OperationAPIRequest, Draws: []domain.Draw{{GrantID: grantID, Amount: 1}}})
	if err != nil {
		b.Fatal(err)
	}
	s := r.Store()
	version := a.Version()
	const batch = 5000
	for done := 0; done < n; done += batch {
		events := make([]eventstore.NewEvent, min(batch, n-done))
		for i := range events {
			events[i] = eventstore.NewEvent{Type: typ, SchemaVersion: sv, Data: data}
		}
		tx, err := s.Pool().Begin(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Append(ctx, tx, domain.StreamID(id), version, events, eventstore.Metadata{Actor: "bench"}, time.Time{}); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(ctx); err != nil {
			b.Fatal(err)
		}
		version += int64(len(events))
	}
}
