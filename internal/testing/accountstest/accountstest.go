// Package accountstest arranges accounts for tests and benchmarks.
package accountstest

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
)

// Register opens an account with a placeholder API key and returns its id.
func Register(tb testing.TB, r *accounts.Repository) string {
	tb.Helper()
	id := uuid.NewString()
	_, err := r.Create(context.Background(), id, eventstore.UpdateOptions{}, func(_ context.Context, _ accounts.Work, now time.Time) (*domain.Account, error) {
		return domain.Register(id, id+"@example.com", domain.APIKeyMaterial{KeyID: "k1", Prefix: "a2e_k1", Hash: "h-" + id, Encrypted: "enc"}, now)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return id
}

// Do runs cmd on account id.
func Do(tb testing.TB, r *accounts.Repository, id string, cmd func(a *domain.Account, now time.Time) error) eventstore.Result {
	tb.Helper()
	res, err := r.Change(context.Background(), id, eventstore.UpdateOptions{}, func(_ context.Context, _ accounts.Work, a *domain.Account, now time.Time) (any, error) {
		return nil, cmd(a, now)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// Grant is a command granting amount credits from source.
func Grant(amount int64, source string, expires *time.Time) func(a *domain.Account, now time.Time) error {
	return func(a *domain.Account, now time.Time) error {
		return a.GrantCredits(domain.CreditsGranted{Amount: amount, Source: source, ExpiresAt: expires}, now)
	}
}

// FillHistory appends n spends of 1 credit, drawn from the account's first
// live grant so the history stays replayable, in batches of 5,000 raw
// appends (the snapshot is refreshed by the next command).
func FillHistory(tb testing.TB, r *accounts.Repository, id string, n int) {
	tb.Helper()
	ctx := context.Background()
	a, err := r.Replay(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	grantID := a.Grants(time.Now())[0].ID
	typ, sv, data, err := domain.EncodeEvent(domain.CreditsSpent{Amount: 1, Operation: domain.OperationAPIRequest, Draws: []domain.Draw{{GrantID: grantID, Amount: 1}}})
	if err != nil {
		tb.Fatal(err)
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
			tb.Fatal(err)
		}
		if _, err := s.Append(ctx, tx, domain.StreamID(id), version, events, eventstore.Metadata{Actor: "bench"}, time.Time{}); err != nil {
			tb.Fatal(err)
		}
		if err := tx.Commit(ctx); err != nil {
			tb.Fatal(err)
		}
		version += int64(len(events))
	}
}
