package accounts_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/testing/accountstest"
)

// Spends on a cached account leave the snapshot behind, never by
// SnapshotEvery versions or more: a spend whose head would be that far
// past the snapshot writes it. At every lag, from 0 to SnapshotEvery-1
// and at the spend that reaches SnapshotEvery, the account read from the
// head (snapshot and tail: FromSnapshot, as every reader) is the one its
// whole history gives, and every spend sees the balance exact. With and
// without the group commit.
func TestSpendsLeaveTheSnapshotBehindBySnapshotEveryAtMost(t *testing.T) {
	for _, group := range []bool{false, true} {
		t.Run(fmt.Sprintf("group=%v", group), func(t *testing.T) {
			r := newRepoGrouped(t, group)
			id := accountstest.Register(t, r)
			accountstest.Do(t, r, id, accountstest.Grant(500, domain.SourcePurchase, nil))
			var last [2]int64
			want := int64(500)
			maxLag, saved := int64(0), 0
			for i := range 2*accounts.SnapshotEvery + 5 {
				before, err := r.Store().Snapshot(context.Background(), domain.StreamID(id))
				if err != nil {
					t.Fatal(err)
				}
				seen, err := spendSeeing(t, r, id, "")
				if err != nil || seen != want {
					t.Fatalf("spend %d saw %d (%v), want %d", i, seen, err, want)
				}
				want--
				after, err := r.Store().Snapshot(context.Background(), domain.StreamID(id))
				if err != nil {
					t.Fatal(err)
				}
				reach := after.Version - before.StateVersion // how far it would have left the snapshot
				switch {
				case after.StateVersion != before.StateVersion:
					saved++
					if after.StateVersion != after.Version || i > 0 && reach < accounts.SnapshotEvery {
						t.Fatalf("spend %d wrote the snapshot at %d (head %d), %d versions past the last", i, after.StateVersion, after.Version, reach)
					}
				case reach >= accounts.SnapshotEvery:
					t.Fatalf("spend %d left the head %d versions past its snapshot", i, reach)
				}
				maxLag = max(maxLag, after.Version-after.StateVersion)
				headMatchesReplay(t, r, id)
			}
			if maxLag < accounts.SnapshotEvery-2 || saved < 3 {
				t.Fatalf("largest lag %d, snapshots written %d; want lags up to %d and three writes", maxLag, saved, accounts.SnapshotEvery-1)
			}
			if hits, misses := cacheCounts(r, &last); misses != 1 || hits != 2*accounts.SnapshotEvery+4 {
				t.Fatalf("%d hits, %d misses; want one miss, the first", hits, misses)
			}
		})
	}
}

// Two processes (two Repositories on their own Stores and pools: one
// spending through Update, one through a group commit) alternate on one
// account in runs of several spends, so each finds the head the other
// left, often with the snapshot behind it: never a hit on the other's
// head, balances exact, and a hit on each spend that follows its own.
func TestTwoProcessesAlternatingNeverHitTheOthersHead(t *testing.T) {
	r1, r2, c := twoProcesses(t)
	id := accountstest.Register(t, r1)
	accountstest.Do(t, r1, id, accountstest.Grant(1000, domain.SourcePurchase, nil))
	want := int64(1000)
	var last1, last2 [2]int64
	var spends [2]int64
	for round, run := range []int{3, 7, 1, 40, 2, 1, 35, 5} {
		r, last, p := r1, &last1, 0
		if round%2 == 1 {
			r, last, p = r2, &last2, 1
		}
		for i := range run {
			seen, err := spendSeeing(t, r, id, "")
			if err != nil || seen != want {
				t.Fatalf("round %d, spend %d saw %d (%v), want %d", round, i, seen, err, want)
			}
			want--
		}
		spends[p] += int64(run)
		// The first spend of each run misses (the other moved the head);
		// the others take the account this process left.
		if hits, misses := cacheCounts(r, last); misses != 1 || hits != int64(run-1) {
			t.Fatalf("round %d (%d spends): %d hits, %d misses", round, run, hits, misses)
		}
		headMatchesReplay(t, r1, id)
	}
	if a, err := r2.Replay(context.Background(), id); err != nil || a.Balance(c.Now()) != want {
		t.Fatalf("balance after %d spends: %v (%v), want %d", spends[0]+spends[1], a, err, want)
	}
}

// A head that no write of this process left never serves the account this
// process kept: not one without a token (a row from before migration
// 00038), not one at the same version under another token (another
// process's write after a failover took the head back and another history
// reached the version again). The spend decodes the head, decides on what
// the database holds, and the next one hits again.
func TestSpendOnAHeadItDidNotWriteMisses(t *testing.T) {
	for _, group := range []bool{false, true} {
		t.Run(fmt.Sprintf("group=%v", group), func(t *testing.T) {
			r := newRepoGrouped(t, group)
			other := accounts.NewRepository(r.Store(), r.Now)
			ctx := context.Background()
			pool := r.Store().Pool()
			id := accountstest.Register(t, r)
			accountstest.Do(t, r, id, accountstest.Grant(20, domain.SourcePurchase, nil))
			var last [2]int64
			for range 3 {
				if _, err := spendSeeing(t, r, id, ""); err != nil {
					t.Fatal(err)
				}
			}
			cacheCounts(r, &last)

			// No token.
			if _, err := pool.Exec(ctx, `UPDATE streams SET token = NULL WHERE stream_id = $1`, domain.StreamID(id)); err != nil {
				t.Fatal(err)
			}
			spendCounted(t, r, id, &last, "spend on a head without token", 17, 0, 1)
			spendCounted(t, r, id, &last, "next spend", 16, 1, 0)

			// A failover that lost this process's last spend: the head goes
			// back to the row before it, and another process's grant of 5
			// takes it to the same version again.
			var row struct {
				version, stateVersion int64
				token                 *int64
				snapshot              []byte
			}
			if err := pool.QueryRow(ctx, `SELECT version, token, saved, state_version FROM streams WHERE stream_id = $1`, domain.StreamID(id)).
				Scan(&row.version, &row.token, &row.snapshot, &row.stateVersion); err != nil {
				t.Fatal(err)
			}
			res, err := r.Spend(ctx, id, eventstore.UpdateOptions{}, func(_ context.Context, _ eventstore.Querier, a *domain.Account, now time.Time) (any, error) {
				return nil, a.Spend(domain.OperationAPIRequest, "lost", now)
			})
			if err != nil || res.StreamVersion != row.version+1 {
				t.Fatalf("the spend to lose: %+v (%v)", res, err)
			}
			cacheCounts(r, &last)
			if _, err := pool.Exec(ctx, `DELETE FROM events WHERE stream_id = $1 AND stream_version > $2`, domain.StreamID(id), row.version); err != nil {
				t.Fatal(err)
			}
			if _, err := pool.Exec(ctx, `UPDATE streams SET version = $2, token = $3, saved = $4, state_version = $5 WHERE stream_id = $1`,
				domain.StreamID(id), row.version, row.token, row.snapshot, row.stateVersion); err != nil {
				t.Fatal(err)
			}
			again := accountstest.Do(t, other, id, accountstest.Grant(5, domain.SourcePurchase, nil))
			if again.StreamVersion != res.StreamVersion || again.Token == res.Token {
				t.Fatalf("the other history's head %+v; the lost one's %+v", again, res)
			}
			spendCounted(t, r, id, &last, "spend after the failover", 15+5, 0, 1)
			headMatchesReplay(t, r, id)
		})
	}
}
