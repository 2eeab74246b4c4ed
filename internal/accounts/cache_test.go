package accounts_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// spendSeeing spends 1 credit of account id through r.Spend with the
// idempotency key key ("" for none) and returns the balance its decider saw
// before spending.
func spendSeeing(t *testing.T, r *accounts.Repository, id, key string) (int64, error) {
	t.Helper()
	var seen int64
	_, err := r.Spend(context.Background(), id, eventstore.UpdateOptions{IdempotencyKey: key, RequestHash: "h"},
		func(_ context.Context, _ eventstore.Querier, a *domain.Account, now time.Time) (any, error) {
			seen = a.Balance(now)
			return nil, a.Spend(domain.OperationAPIRequest, fmt.Sprintf("op-%d", a.Version()), now)
		})
	return seen, err
}

// cacheCounts returns r's cache hits and misses since the last call.
func cacheCounts(r *accounts.Repository, last *[2]int64) (hits, misses int64) {
	h, m := r.AccountCacheStats()
	hits, misses = h-last[0], m-last[1]
	*last = [2]int64{h, m}
	return hits, misses
}

// headMatchesReplay checks that the snapshot the head holds is the one the
// account's history up to its state version gives, and that the account
// read from the head (that snapshot and the events after it) is the one
// the whole history gives: what spends decided on cached accounts stored
// is what decoding would have. (Since issue 36's eighth session a spend
// on a cached account leaves the snapshot behind, up to snapshotEvery
// versions.)
func headMatchesReplay(t *testing.T, r *accounts.Repository, id string) {
	t.Helper()
	ctx := context.Background()
	snap, err := r.Store().Snapshot(ctx, domain.StreamID(id))
	if err != nil {
		t.Fatal(err)
	}
	history, err := r.History(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var upTo []domain.Recorded
	for _, h := range history {
		if h.Version <= snap.StateVersion {
			upTo = append(upTo, h)
		}
	}
	then, err := domain.Rehydrate(id, upTo)
	if err != nil {
		t.Fatal(err)
	}
	want, err := then.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if snap.StateVersion != then.Version() || !bytes.Equal(snap.State, want) {
		t.Fatalf("head's snapshot at %d holds\n%s\nreplay to %d gives\n%s", snap.StateVersion, snap.State, then.Version(), want)
	}
	a, err := r.Replay(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	read, err := r.FromSnapshot(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	got, err := read.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if want, err = a.Snapshot(); err != nil {
		t.Fatal(err)
	}
	if read.Version() != a.Version() || read.Version() != snap.Version || !bytes.Equal(got, want) {
		t.Fatalf("the head (version %d) reads at %d as\n%s\nreplay at %d gives\n%s", snap.Version, read.Version(), got, a.Version(), want)
	}
}

// A spend takes the account its previous spend left (a hit) and decides as
// a decoded one would; a command that is not a spend (Update) moves the
// head, and the next spend decodes it (a miss) and sees its change. With
// and without the group commit.
func TestSpendReusesTheAccountItLeft(t *testing.T) {
	for _, group := range []bool{false, true} {
		t.Run(fmt.Sprintf("group=%v", group), func(t *testing.T) {
			r := newRepoGrouped(t, group)
			id := accountstest.Register(t, r)
			accountstest.Do(t, r, id, accountstest.Grant(10, domain.SourcePurchase, nil))
			var last [2]int64
			for i, want := range []int64{10, 9, 8, 7} {
				seen, err := spendSeeing(t, r, id, fmt.Sprintf("k%d", i))
				if err != nil || seen != want {
					t.Fatalf("spend %d saw %d (%v), want %d", i, seen, err, want)
				}
				hits, misses := cacheCounts(r, &last)
				if wantHit := i > 0; hits != b2i(wantHit) || misses != b2i(!wantHit) {
					t.Fatalf("spend %d: %d hits, %d misses; want a hit: %v", i, hits, misses, wantHit)
				}
			}
			headMatchesReplay(t, r, id)

			// A replay of a key answers without deciding: the cache stays.
			if _, err := spendSeeing(t, r, id, "k3"); err != nil {
				t.Fatal(err)
			}
			if hits, misses := cacheCounts(r, &last); hits != 0 || misses != 0 {
				t.Fatalf("replayed key: %d hits, %d misses; want neither (no decider ran)", hits, misses)
			}
			spendCounted(t, r, id, &last, "spend after the replay", 6, 1, 0)
			accountstest.Do(t, r, id, accountstest.Grant(5, domain.SourcePurchase, nil))
			spendCounted(t, r, id, &last, "spend after a grant", 5+5, 0, 1)
			if seen, err := spendSeeing(t, r, id, ""); err != nil || seen != 9 {
				t.Fatalf("next spend saw %d (%v), want 9", seen, err)
			}
			if hits, _ := cacheCounts(r, &last); hits != 1 {
				t.Fatalf("next spend: %d hits, want 1", hits)
			}
			headMatchesReplay(t, r, id)
		})
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// A spend that does not commit leaves nothing in the cache: its decider
// changed the account it took, so the next spend decodes the head (a miss)
// and sees the balance committed. Refused by the domain, and failed by the
// database after deciding (a trigger refuses its idempotency key's row),
// with and without the group commit (one spend at a time: a batch of one
// goes straight to Update; TestSpendsOfAFailedGroupRunAgainAlone covers a
// failed batch of several, run again command by command).
func TestSpendThatDidNotCommitDropsTheAccount(t *testing.T) {
	for _, group := range []bool{false, true} {
		t.Run(fmt.Sprintf("group=%v", group), func(t *testing.T) {
			r := newRepoGrouped(t, group)
			ctx := context.Background()
			if _, err := r.Store().Pool().Exec(ctx, `
				CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
				BEGIN
					IF NEW.idempotency_key = 'boom' THEN RAISE EXCEPTION 'boom refused'; END IF;
					RETURN NEW;
				END $$;
				CREATE TRIGGER refuse_boom BEFORE INSERT ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION refuse_boom();`); err != nil {
				t.Fatal(err)
			}
			id := accountstest.Register(t, r)
			accountstest.Do(t, r, id, accountstest.Grant(2, domain.SourcePurchase, nil))
			var last [2]int64
			for i, want := range []int64{2, 1} {
				if seen, err := spendSeeing(t, r, id, ""); err != nil || seen != want {
					t.Fatalf("spend %d saw %d (%v), want %d", i, seen, err, want)
				}
			}
			cacheCounts(r, &last)
			// Refused: nothing left.
			if _, err := spendSeeing(t, r, id, ""); domain.ErrorCode(err) != domain.CodeInsufficientCredits {
				t.Fatalf("spend of an empty account: %v", err)
			}
			if hits, misses := cacheCounts(r, &last); hits != 1 || misses != 0 {
				t.Fatalf("refused spend: %d hits, %d misses; want a hit", hits, misses)
			}
			accountstest.Do(t, r, id, accountstest.Grant(3, domain.SourcePurchase, nil))
			if seen, err := spendSeeing(t, r, id, ""); err != nil || seen != 3 {
				t.Fatalf("spend after the grant saw %d (%v), want 3", seen, err)
			}
			if seen, err := spendSeeing(t, r, id, "boom"); err == nil || seen != 2 {
				t.Fatalf("spend whose write fails saw %d (%v), want 2 and an error", seen, err)
			}
			cacheCounts(r, &last)
			spendCounted(t, r, id, &last, "spend after the failed one", 2, 0, 1)
			headMatchesReplay(t, r, id)
		})
	}
}

// Two processes (two Repositories, each on its own Store and pool) spend
// from one account in turn: each finds the head moved by the other and
// decodes it, never deciding on the account it left itself.
func TestSpendsFromTwoProcessesMissEachOther(t *testing.T) {
	r1, r2, _ := twoProcesses(t)
	id := accountstest.Register(t, r1)
	accountstest.Do(t, r1, id, accountstest.Grant(20, domain.SourcePurchase, nil))
	want := int64(20)
	var last1, last2 [2]int64
	for i, r := range []*accounts.Repository{r1, r2, r1, r1, r2, r2, r1, r2} {
		seen, err := spendSeeing(t, r, id, "")
		if err != nil || seen != want {
			t.Fatalf("spend %d saw %d (%v), want %d", i, seen, err, want)
		}
		want--
	}
	// r1 spent at 0, 2, 3, 6: a hit only at 3 (after its own 2); r2 at 1,
	// 4, 5, 7: a hit only at 5.
	if hits, misses := cacheCounts(r1, &last1); hits != 1 || misses != 3 {
		t.Errorf("first process: %d hits, %d misses; want 1 and 3", hits, misses)
	}
	if hits, misses := cacheCounts(r2, &last2); hits != 1 || misses != 3 {
		t.Errorf("second process: %d hits, %d misses; want 1 and 3", hits, misses)
	}
	headMatchesReplay(t, r1, id)
}

// newRepoGrouped is newRepo's repository, spending through a group commit
// (a Batcher of the defaults) when group is true.
func newRepoGrouped(t *testing.T, group bool) *accounts.Repository {
	t.Helper()
	r, _ := newRepo(t)
	if group {
		r.UseGroupCommit(r.Store().NewBatcher(eventstore.BatcherOptions{}))
		t.Cleanup(r.Close)
	}
	return r
}

// twoProcesses is two Repositories on their own Stores and pools over one
// database, as two bin/api processes are: the first spends through Update,
// the second through a group commit.
func twoProcesses(t *testing.T) (r1, r2 *accounts.Repository, c *clock) {
	t.Helper()
	url := testdb.NewURL(t)
	c = &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	r1 = accounts.NewRepository(eventstore.New(testdb.Pool(t, url)), c.Now)
	r2 = accounts.NewRepository(eventstore.New(testdb.Pool(t, url)), c.Now)
	r2.UseGroupCommit(r2.Store().NewBatcher(eventstore.BatcherOptions{}))
	t.Cleanup(r2.Close)
	return r1, r2, c
}

// spendCounted spends one credit from id through r and fails the test
// (saying what) unless the spend saw wantSeen credits and the cache counted
// wantHits hits and wantMisses misses since last.
func spendCounted(t *testing.T, r *accounts.Repository, id string, last *[2]int64, what string, wantSeen, wantHits, wantMisses int64) {
	t.Helper()
	if seen, err := spendSeeing(t, r, id, ""); err != nil || seen != wantSeen {
		t.Fatalf("%s saw %d (%v), want %d", what, seen, err, wantSeen)
	}
	if hits, misses := cacheCounts(r, last); hits != wantHits || misses != wantMisses {
		t.Fatalf("%s: %d hits, %d misses; want %d and %d", what, hits, misses, wantHits, wantMisses)
	}
}
