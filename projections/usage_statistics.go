package projections

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// UsageStatistics projects per account and day: credits used, listings
// created and VeRO checks.
type UsageStatistics struct{}

// Name implements Projection.
func (UsageStatistics) Name() string { return "usage_statistics" }

// Tables implements Projection.
func (UsageStatistics) Tables() []string { return []string{"usage_statistics"} }

// usageKey is a usage_statistics row's key.
type usageKey struct{ account, day string }

// usageRow is what a batch adds to a usage_statistics row.
type usageRow struct{ credits, listings, vero int64 }

func (r usageRow) plus(o usageRow) usageRow {
	return usageRow{r.credits + o.credits, r.listings + o.listings, r.vero + o.vero}
}

// usageOf is the usage statistics' fold: what ev adds to its account's row
// of its day (zero for an event that is not usage); the rows are counters,
// so a row after a batch is the row before plus the batch's sum. It reads
// and writes nothing.
func usageOf(ev domain.Event) (usageRow, error) {
	spent, _ := domain.SpendOf(ev) // alone, or carried by a listing or a VeRO check (none in the two-event form)
	switch ev.(type) {
	case domain.CreditsSpent:
		return usageRow{credits: spent.Amount}, nil
	case domain.ListingRequested:
		return usageRow{credits: spent.Amount, listings: 1}, nil
	case domain.VeroCheckPerformed:
		return usageRow{credits: spent.Amount, vero: 1}, nil
	case domain.AccountRegistered, domain.EmailVerified, domain.PasswordChanged, domain.APIKeyIssued, domain.APIKeyRotated,
		domain.APIKeyCreated, domain.APIKeyRevoked, domain.APIKeyExpired,
		domain.SubscriptionActivated, domain.SubscriptionRenewed, domain.SubscriptionPastDue, domain.SubscriptionCancelled,
		domain.SubscriptionResumed, domain.SubscriptionEnded, domain.CreditsGranted, domain.CreditsDebited, domain.CreditsExpired,
		domain.CreditsRevoked, domain.DebtRepaid, domain.SoftwareDownloaded, domain.PaymentRecorded, domain.PaymentRefunded,
		domain.DisputeOpened, domain.DisputeClosed, domain.StaffNoteRecorded, domain.SpendLimitsSet, domain.SpendLimitReached,
		domain.AlertSettingsChanged, domain.LowBalanceAlerted, domain.BalanceRecovered, domain.ExpiryReminderSent,
		domain.WebhookEndpointAdded, domain.WebhookSecretRolled, domain.WebhookEndpointRemoved, domain.WebhookEndpointDisabled,
		domain.AutoRechargeSet, domain.PaymentMethodSaved, domain.PaymentMethodRemoved, domain.RechargeRequested,
		domain.RechargeFailed, domain.RechargeNeedsAction, domain.AutoRechargeDisabled:
		return usageRow{}, nil // not usage
	default:
		return usageRow{}, unhandled("usage_statistics", ev)
	}
}

// Apply implements Projection: it sums what the batch adds to each (account,
// day) and adds that to each row once, in one statement (addSums); nothing
// needs reading first.
func (UsageStatistics) Apply(ctx context.Context, tx pgx.Tx, t Tables, recs []eventstore.Record, evs []domain.Event) error {
	keys, adds, err := sumByAccountDay(recs, evs, usageOf)
	if err != nil || len(keys) == 0 {
		return err
	}
	n := len(keys)
	ids, days, credits, listings, vero := make([]string, 0, n), make([]string, 0, n), make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
	for _, k := range keys {
		a := adds[k]
		ids, days, credits, listings, vero = append(ids, k.account), append(days, k.day), append(credits, a.credits), append(listings, a.listings), append(vero, a.vero)
	}
	if _, err := tx.Exec(ctx, addSums(t.Q("usage_statistics"), `unnest($1::text[]::uuid[], $2::text[]::date[], $3::bigint[], $4::bigint[], $5::bigint[])`,
		[]string{"account_id", "day"}, []string{"credits_used", "listings_created", "vero_checks"}),
		ids, days, credits, listings, vero); err != nil {
		return fmt.Errorf("write usage_statistics: %w", err)
	}
	return nil
}

// summable is a row of counters a batch adds to a read table.
type summable[R any] interface {
	comparable
	plus(R) R
}

// sumByAccountDay is what a batch adds to the per-(account, UTC day of
// recording) counter tables, usage_statistics and usage_daily: each event
// through fold, the non-zero adds summed per key, the keys sorted (account,
// then day) so concurrent upserts take their row locks in one order.
func sumByAccountDay[R summable[R]](recs []eventstore.Record, evs []domain.Event, fold func(domain.Event) (R, error)) ([]usageKey, map[usageKey]R, error) {
	var zero R
	adds := map[usageKey]R{}
	for i, rec := range recs {
		add, err := fold(evs[i])
		if err != nil {
			return nil, nil, err
		}
		if add == zero {
			continue
		}
		id, err := accountID(rec)
		if err != nil {
			return nil, nil, err
		}
		k := usageKey{account: id, day: rec.RecordedAt.UTC().Format(time.DateOnly)}
		adds[k] = adds[k].plus(add)
	}
	keys := slices.SortedFunc(maps.Keys(adds), func(a, b usageKey) int {
		return cmp.Or(strings.Compare(a.account, b.account), strings.Compare(a.day, b.day))
	})
	return keys, adds, nil
}

// addSums is the statement that adds a batch's sums, unnest's rows (the
// key columns keys, then the counters), to the counter table tbl: the rows
// there are updated, the others inserted, in one statement. Not INSERT …
// ON CONFLICT DO UPDATE: it locks each row before it updates it, a WAL
// record a row more. The batch's applier is the table's only writer
// (applierKey), so a row the update did not find is not there (a row that
// is would fail the INSERT, never be counted twice).
func addSums(tbl, unnest string, keys, counters []string) string {
	sets := make([]string, len(counters))
	for i, c := range counters {
		sets[i] = c + " = u." + c + " + m." + c
	}
	on, found := make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		on[i], found[i] = "u."+k+" = m."+k, "a."+k+" = m."+k
	}
	cols := strings.Join(append(slices.Clone(keys), counters...), ", ")
	return `WITH m (` + cols + `) AS (SELECT * FROM ` + unnest + `),
		added AS (UPDATE ` + tbl + ` u SET ` + strings.Join(sets, ", ") + ` FROM m WHERE ` + strings.Join(on, " AND ") +
		` RETURNING u.` + strings.Join(keys, ", u.") + `)
		INSERT INTO ` + tbl + ` (` + cols + `) SELECT * FROM m WHERE NOT EXISTS (SELECT 1 FROM added a WHERE ` + strings.Join(found, " AND ") + `)`
}
