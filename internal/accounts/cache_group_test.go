package accounts_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/internal/testing/faultproxy"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// refuseBoom makes the database refuse any idempotency key "boom": a
// command carrying it decides, then fails at its write.
func refuseBoom(t *testing.T, r *accounts.Repository) {
	t.Helper()
	if _, err := r.Store().Pool().Exec(context.Background(), `
		CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			IF NEW.idempotency_key = 'boom' THEN RAISE EXCEPTION 'boom refused'; END IF;
			RETURN NEW;
		END $$;
		CREATE TRIGGER refuse_boom BEFORE INSERT ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION refuse_boom();`); err != nil {
		t.Fatal(err)
	}
}

// Two accounts' spends share one group commit, and one of them fails at
// its write, so the whole group fails and UpdateMany runs each command
// again on its own (the multi-command path, which a lone queued command
// never takes). The other account's spend commits once, on the account it
// decoded again; the failed one's account is not kept.
func TestSpendsOfAFailedGroupRunAgainAlone(t *testing.T) {
	r, _ := newRepo(t)
	b := r.Store().NewBatcher(eventstore.BatcherOptions{Linger: 500 * time.Millisecond})
	r.UseGroupCommit(b)
	t.Cleanup(r.Close)
	refuseBoom(t, r)
	failing, other := accountstest.Register(t, r), accountstest.Register(t, r)
	for _, id := range []string{failing, other} {
		accountstest.Do(t, r, id, accountstest.Grant(5, domain.SourcePurchase, nil))
		if _, err := spendSeeing(t, r, id, ""); err != nil { // leaves an account in the cache
			t.Fatal(err)
		}
	}
	var last [2]int64
	cacheCounts(r, &last)
	batches0, commands0 := b.Stats()

	var runs [2]atomic.Int64
	var seen [2]int64
	var errs [2]error
	var wg sync.WaitGroup
	for i, c := range []struct{ id, key string }{{failing, "boom"}, {other, "ok"}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = r.Spend(context.Background(), c.id, eventstore.UpdateOptions{IdempotencyKey: c.key, RequestHash: "h"},
				func(_ context.Context, _ eventstore.Querier, a *domain.Account, now time.Time) (any, error) {
					runs[i].Add(1)
					seen[i] = a.Balance(now)
					return nil, a.Spend(domain.OperationAPIRequest, fmt.Sprintf("op-%d", a.Version()), now)
				})
		}()
	}
	wg.Wait()
	batches, commands := b.Stats()
	if batches-batches0 != 1 || commands-commands0 != 2 {
		t.Fatalf("%d commands in %d batches; want the two in one", commands-commands0, batches-batches0)
	}
	if errs[0] == nil || errs[1] != nil {
		t.Fatalf("failing spend: %v; other: %v", errs[0], errs[1])
	}
	// Each decider ran in the group and again alone.
	if runs[0].Load() != 2 || runs[1].Load() != 2 {
		t.Fatalf("decider runs %d and %d; want 2 each (group, then alone)", runs[0].Load(), runs[1].Load())
	}
	if seen[1] != 4 {
		t.Fatalf("other spend's last run saw %d, want 4", seen[1])
	}
	// Group runs: two hits; the runs alone: two misses (the group's runs
	// took the entries and changed them).
	if hits, misses := cacheCounts(r, &last); hits != 2 || misses != 2 {
		t.Fatalf("group then alone: %d hits, %d misses; want 2 and 2", hits, misses)
	}
	// The failed account's next spend decodes (nothing was kept) and sees
	// the balance committed; the other's takes what its spend left.
	spendCounted(t, r, failing, &last, "failed account's next spend", 4, 0, 1)
	spendCounted(t, r, other, &last, "other account's next spend", 3, 1, 0)
	for _, id := range []string{failing, other} {
		headMatchesReplay(t, r, id)
	}
}

// Spenders on two processes (two Repositories on one database, one
// spending through Update, one through a Batcher with three group commits
// in flight) spend from a few accounts at once, some reusing idempotency
// keys, many refused once the credits are gone. Every credit spent is one
// event, no balance goes below zero, and every head's snapshot is what its
// replay gives. Meant for -race.
func TestConcurrentSpendsOfTwoProcessesKeepTheLedger(t *testing.T) {
	url := testdb.NewURL(t)
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	plain := accounts.NewRepository(eventstore.New(testdb.Pool(t, url)), c.Now)
	grouped := accounts.NewRepository(eventstore.New(testdb.Pool(t, url)), c.Now)
	grouped.UseGroupCommit(grouped.Store().NewBatcher(eventstore.BatcherOptions{InFlight: 3, Linger: time.Millisecond}))
	t.Cleanup(grouped.Close)
	const accountsN, credits, workers, each = 4, 30, 16, 15
	ids := fundedAccounts(t, plain, accountsN, credits)
	committed := make([]atomic.Int64, accountsN)
	var replayed, refused atomic.Int64
	errs := make(chan error, workers*each)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := plain
			if w%2 == 1 {
				r = grouped
			}
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for i := range each {
				a := rng.IntN(accountsN)
				key := ""
				if i%3 == 0 { // shared among the workers: replays, across processes too
					key = fmt.Sprintf("shared-%d", i)
				}
				res, err := r.Spend(context.Background(), ids[a], eventstore.UpdateOptions{IdempotencyKey: key, RequestHash: "h"},
					func(_ context.Context, _ eventstore.Querier, acc *domain.Account, now time.Time) (any, error) {
						return nil, acc.Spend(domain.OperationAPIRequest, fmt.Sprintf("w%d-%d", w, i), now)
					})
				switch {
				case err == nil && res.Replayed:
					replayed.Add(1)
				case err == nil:
					committed[a].Add(1)
				case domain.ErrorCode(err) == domain.CodeInsufficientCredits:
					refused.Add(1)
				default:
					errs <- fmt.Errorf("worker %d spend %d: %w", w, i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	for a, id := range ids {
		acc, err := plain.Replay(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		n := committed[a].Load()
		if bal := acc.Balance(c.Now()); bal != credits-n || bal < 0 {
			t.Errorf("account %d: balance %d after %d spends of %d credits", a, bal, n, credits)
		}
		var spent int64
		if err := plain.Store().Pool().QueryRow(context.Background(), `SELECT count(*) FROM events
			WHERE stream_id = $1 AND (event_type = 'CreditsSpent' OR (event_type IN ('ListingRequested', 'VeroCheckPerformed') AND data ? 'spent'))`, domain.StreamID(id)).Scan(&spent); err != nil {
			t.Fatal(err)
		}
		if spent != n {
			t.Errorf("account %d: %d spend events, %d spends committed", a, spent, n)
		}
		headMatchesReplay(t, plain, id)
	}
	if refused.Load() == 0 || replayed.Load() == 0 {
		t.Errorf("%d refused, %d replayed: the test did not exercise both", refused.Load(), replayed.Load())
	}
	h1, m1 := plain.AccountCacheStats()
	h2, m2 := grouped.AccountCacheStats()
	t.Logf("%d replayed, %d refused; cache plain %d/%d, grouped %d/%d hits/misses", replayed.Load(), refused.Load(), h1, m1, h2, m2)
}

// A spend whose COMMIT's answer is lost (ErrCommitUnknown: the proxy cuts
// the connection after the server answered, or instead of delivering it)
// keeps nothing: its next spend decodes the head (a miss) and sees what the
// server did, committed or not. Alone, and through a group commit (a batch
// of one, which goes to Update).
func TestSpendOfUnknownOutcomeKeepsNothing(t *testing.T) {
	for _, group := range []bool{false, true} {
		for _, deliver := range []bool{true, false} {
			t.Run(fmt.Sprintf("group=%v/delivered=%v", group, deliver), func(t *testing.T) {
				r, proxy := proxiedRepo(t)
				if group {
					r.UseGroupCommit(r.Store().NewBatcher(eventstore.BatcherOptions{}))
					t.Cleanup(r.Close)
				}
				id := accountstest.Register(t, r)
				accountstest.Do(t, r, id, accountstest.Grant(5, domain.SourcePurchase, nil))
				if _, err := spendSeeing(t, r, id, "warm"); err != nil {
					t.Fatal(err)
				}
				var last [2]int64
				cacheCounts(r, &last)
				cut := proxy.CutCommit("cut-me", deliver)
				if _, err := spendSeeing(t, r, id, "cut-me"); !errors.Is(err, eventstore.ErrCommitUnknown) {
					t.Fatalf("spend whose COMMIT was cut: %v, want ErrCommitUnknown", err)
				}
				select {
				case <-cut:
				case <-time.After(5 * time.Second):
					t.Fatal("the cut was not made")
				}
				if hits, misses := cacheCounts(r, &last); hits != 1 || misses != 0 {
					t.Fatalf("cut spend: %d hits, %d misses; want a hit", hits, misses)
				}
				want := int64(4)
				if deliver {
					want = 3
				}
				if seen, err := spendSeeing(t, r, id, ""); err != nil || seen != want {
					t.Fatalf("spend after the cut saw %d (%v), want %d", seen, err, want)
				}
				if hits, misses := cacheCounts(r, &last); hits != 0 || misses != 1 {
					t.Fatalf("spend after the cut: %d hits, %d misses; want a miss", hits, misses)
				}
				headMatchesReplay(t, r, id)
			})
		}
	}
}

// proxiedRepo is a repository on a fresh database reached through a
// faultproxy in Postgres mode, which can cut a COMMIT.
func proxiedRepo(t *testing.T) (*accounts.Repository, *faultproxy.Proxy) {
	t.Helper()
	u, err := url.Parse(testdb.NewURL(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := faultproxy.Start(t, u.Host)
	proxy.Set(faultproxy.Postgres)
	u.Host = proxy.Addr()
	q := u.Query()
	q.Set("sslmode", "disable") // the proxy reads plaintext only
	u.RawQuery = q.Encode()
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	return accounts.NewRepository(eventstore.New(testdb.Pool(t, u.String())), c.Now), proxy
}

// Two accounts' spends share one group commit whose COMMIT's answer is
// lost: UpdateMany does not run them again, both get ErrCommitUnknown and
// keep nothing, and each account's next spend decodes the head (a miss) and
// sees what the server did.
func TestSpendsOfAGroupOfUnknownOutcomeKeepNothing(t *testing.T) {
	for _, deliver := range []bool{true, false} {
		t.Run(fmt.Sprintf("delivered=%v", deliver), func(t *testing.T) {
			r, proxy := proxiedRepo(t)
			b := r.Store().NewBatcher(eventstore.BatcherOptions{Linger: 500 * time.Millisecond})
			r.UseGroupCommit(b)
			t.Cleanup(r.Close)
			ids := []string{accountstest.Register(t, r), accountstest.Register(t, r)}
			for _, id := range ids {
				accountstest.Do(t, r, id, accountstest.Grant(5, domain.SourcePurchase, nil))
				if _, err := spendSeeing(t, r, id, ""); err != nil {
					t.Fatal(err)
				}
			}
			var last [2]int64
			cacheCounts(r, &last)
			batches0, _ := b.Stats()
			cut := proxy.CutCommit("cut-me", deliver)
			var errs [2]error
			var wg sync.WaitGroup
			for i, key := range []string{"cut-me", "other"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = spendSeeing(t, r, ids[i], key)
				}()
			}
			wg.Wait()
			if batches, _ := b.Stats(); batches-batches0 != 1 {
				t.Fatalf("%d batches; want the two spends in one", batches-batches0)
			}
			for i, err := range errs {
				if !errors.Is(err, eventstore.ErrCommitUnknown) {
					t.Fatalf("spend %d of the cut group: %v, want ErrCommitUnknown", i, err)
				}
			}
			select {
			case <-cut:
			case <-time.After(5 * time.Second):
				t.Fatal("the cut was not made")
			}
			if hits, misses := cacheCounts(r, &last); hits != 2 || misses != 0 {
				t.Fatalf("cut group: %d hits, %d misses; want 2 hits, no run again", hits, misses)
			}
			want := int64(4)
			if deliver {
				want = 3
			}
			for _, id := range ids {
				if seen, err := spendSeeing(t, r, id, ""); err != nil || seen != want {
					t.Fatalf("spend after the cut saw %d (%v), want %d", seen, err, want)
				}
				if hits, misses := cacheCounts(r, &last); hits != 0 || misses != 1 {
					t.Fatalf("spend after the cut: %d hits, %d misses; want a miss", hits, misses)
				}
				headMatchesReplay(t, r, id)
			}
		})
	}
}
