package accounts_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// TestGroupCommitNoOverdraft: 10 accounts with 20 credits each, 8 spenders
// per account, 5 spends each, all through one group commit. Exactly 20
// spends per account succeed, the rest are refused, every balance ends at
// zero, every success is exactly one event, and batches really carried
// several commands.
func TestGroupCommitNoOverdraft(t *testing.T) {
	r, _ := newRepo(t)
	b := r.Store().NewBatcher(eventstore.BatcherOptions{Lanes: 2, MaxBatch: 16})
	r.UseGroupCommit(b)
	t.Cleanup(r.Close)
	const accountsN, spenders, each, credits = 10, 8, 5, 20
	ids := fundedAccounts(t, r, accountsN, credits)
	ok := make([]atomic.Int64, accountsN)
	var refused atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, accountsN*spenders)
	for a := range accountsN {
		for w := range spenders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					_, err := r.Spend(context.Background(), ids[a], eventstore.UpdateOptions{}, func(_ context.Context, _ eventstore.Querier, acc *domain.Account, now time.Time) (any, error) {
						return nil, acc.Spend(domain.OperationAPIRequest, fmt.Sprintf("a%d-w%d-%d", a, w, i), now)
					})
					if !tally(err, &ok[a], &refused, errs) {
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for a, id := range ids {
		if n := ok[a].Load(); n != credits {
			t.Errorf("account %d: %d spends succeeded, want %d", a, n, credits)
		}
		acc, err := r.Replay(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if bal := acc.Balance(time.Now()); bal != 0 {
			t.Errorf("account %d: balance %d, want 0", a, bal)
		}
		var spent int
		if err := r.Store().Pool().QueryRow(context.Background(), `SELECT count(*) FROM events
			WHERE stream_id = $1 AND (event_type = 'CreditsSpent' OR (event_type IN ('ListingRequested', 'VeroCheckPerformed') AND data ? 'spent'))`, domain.StreamID(id)).Scan(&spent); err != nil {
			t.Fatal(err)
		}
		if spent != credits {
			t.Errorf("account %d: %d spend events, want %d", a, spent, credits)
		}
	}
	if want := int64(accountsN*spenders*each - accountsN*credits); refused.Load() != want {
		t.Errorf("%d refused, want %d", refused.Load(), want)
	}
	batches, commands := b.Stats()
	if commands != accountsN*spenders*each || batches >= commands {
		t.Errorf("%d commands in %d batches: no command was coalesced", commands, batches)
	}
	t.Logf("%d commands in %d group commits", commands, batches)
}
