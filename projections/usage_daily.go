package projections

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// UsageDaily projects usage per account and UTC day for GET
// /api/usage/daily and its CSV (issue 35): credits spent, listings
// created, VeRO checks and credits taken back by refunds. A day with no
// usage has no row; the query fills it with zeros. Beside it,
// usage_daily_keys keeps the same per API key from the spends that name
// their key (credits, listings, VeRO checks): usage by key.
type UsageDaily struct{}

// Name implements Projection.
func (UsageDaily) Name() string { return "usage_daily" }

// Tables implements Projection.
func (UsageDaily) Tables() []string { return []string{"usage_daily", "usage_daily_keys"} }

// dayRow is what a batch adds to a usage_daily row.
type dayRow struct{ credits, listings, vero, refunded int64 }

func (r dayRow) plus(o dayRow) dayRow {
	return dayRow{r.credits + o.credits, r.listings + o.listings, r.vero + o.vero, r.refunded + o.refunded}
}

// usageDayOf is usage_daily's fold: what ev adds to its account's row of
// its day (zero for an event that is not usage). refunded counts the
// credits a refund took back: those off the balance and those owed (a lost
// dispute's revocation is not a refund and counts nothing). It reads and
// writes nothing.
func usageDayOf(ev domain.Event) (dayRow, error) {
	if e, ok := ev.(domain.CreditsRevoked); ok {
		if e.Reason != domain.RevokedForRefund {
			return dayRow{}, nil
		}
		return dayRow{refunded: e.Amount + e.Debt}, nil
	}
	u, err := usageOf(ev) // the rest is usage_statistics' fold
	if err != nil {
		return dayRow{}, unhandled("usage_daily", ev)
	}
	return dayRow{credits: u.credits, listings: u.listings, vero: u.vero}, nil
}

// Apply implements Projection: it sums what the batch adds to each
// (account, UTC day of the event's recording) and adds that to each row
// once, in one statement (addSums); nothing needs reading first.
func (UsageDaily) Apply(ctx context.Context, tx pgx.Tx, t Tables, recs []eventstore.Record, evs []domain.Event) error {
	keys, adds, err := sumByAccountDay(recs, evs, usageDayOf)
	if err != nil || len(keys) == 0 {
		return err // a batch without usage has no spend of a key either
	}
	n := len(keys)
	ids, days := make([]string, 0, n), make([]string, 0, n)
	credits, listings, vero, refunded := make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
	for _, k := range keys {
		a := adds[k]
		ids, days = append(ids, k.account), append(days, k.day)
		credits, listings, vero, refunded = append(credits, a.credits), append(listings, a.listings), append(vero, a.vero), append(refunded, a.refunded)
	}
	if err := applyKeyDays(ctx, tx, t, recs, evs); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, addSums(t.Q("usage_daily"), `unnest($1::text[]::uuid[], $2::text[]::date[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[])`,
		[]string{"account_id", "day"}, []string{"credits", "listings", "vero_checks", "refunded"}),
		ids, days, credits, listings, vero, refunded); err != nil {
		return fmt.Errorf("write usage_daily: %w", err)
	}
	return nil
}

// keyDay is an account's usage with one API key on one UTC day.
type keyDay struct{ account, key, day string }

// applyKeyDays adds the batch's spends made with a key to
// usage_daily_keys: what each spend took, and a listing or a VeRO check by
// its operation. A spend that names no key (made otherwise) counts in
// usage_daily only.
func applyKeyDays(ctx context.Context, tx pgx.Tx, t Tables, recs []eventstore.Record, evs []domain.Event) error {
	adds := map[keyDay]dayRow{}
	var order []keyDay
	for i, rec := range recs {
		e, ok := domain.SpendOf(evs[i]) // alone, or carried by a listing or a VeRO check
		if !ok || e.KeyID == "" {
			continue
		}
		id, err := accountID(rec)
		if err != nil {
			return err
		}
		add := dayRow{credits: e.Amount}
		switch e.Operation {
		case domain.OperationListing:
			add.listings = 1
		case domain.OperationVeroCheck:
			add.vero = 1
		}
		k := keyDay{account: id, key: e.KeyID, day: rec.RecordedAt.UTC().Format(time.DateOnly)}
		if _, seen := adds[k]; !seen {
			order = append(order, k)
		}
		adds[k] = adds[k].plus(add)
	}
	if len(order) == 0 {
		return nil
	}
	slices.SortFunc(order, func(a, b keyDay) int {
		return cmp.Or(strings.Compare(a.account, b.account), strings.Compare(a.key, b.key), strings.Compare(a.day, b.day))
	})
	n := len(order)
	ids, keys, days := make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
	credits, listings, vero := make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
	for _, k := range order {
		a := adds[k]
		ids, keys, days = append(ids, k.account), append(keys, k.key), append(days, k.day)
		credits, listings, vero = append(credits, a.credits), append(listings, a.listings), append(vero, a.vero)
	}
	if _, err := tx.Exec(ctx, addSums(t.Q("usage_daily_keys"), `unnest($1::text[]::uuid[], $2::text[], $3::text[]::date[], $4::bigint[], $5::bigint[], $6::bigint[])`,
		[]string{"account_id", "key_id", "day"}, []string{"credits", "listings", "vero_checks"}),
		ids, keys, days, credits, listings, vero); err != nil {
		return fmt.Errorf("write usage_daily_keys: %w", err)
	}
	return nil
}
