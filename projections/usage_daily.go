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

// UsageDaily projects usage per account and UTC day for GET
// /api/usage/daily and its CSV (issue 35): credits spent, listings
// created, VeRO checks and credits taken back by refunds. A day with no
// usage has no row; the query fills it with zeros.
type UsageDaily struct{}

// Name implements Projection.
func (UsageDaily) Name() string { return "usage_daily" }

// Tables implements Projection.
func (UsageDaily) Tables() []string { return []string{"usage_daily"} }

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
	switch e := ev.(type) {
	case domain.CreditsSpent:
		return dayRow{credits: e.Amount}, nil
	case domain.ListingRequested:
		return dayRow{listings: 1}, nil
	case domain.VeroCheckPerformed:
		return dayRow{vero: 1}, nil
	case domain.CreditsRevoked:
		if e.Reason != domain.RevokedForRefund {
			return dayRow{}, nil
		}
		return dayRow{refunded: e.Amount + e.Debt}, nil
	case domain.AccountRegistered, domain.EmailVerified, domain.PasswordChanged, domain.APIKeyIssued, domain.APIKeyRotated,
		domain.SubscriptionActivated, domain.SubscriptionRenewed, domain.SubscriptionPastDue, domain.SubscriptionCancelled,
		domain.SubscriptionResumed, domain.SubscriptionEnded, domain.CreditsGranted, domain.CreditsDebited, domain.CreditsExpired,
		domain.DebtRepaid, domain.SoftwareDownloaded, domain.PaymentRecorded, domain.PaymentRefunded,
		domain.DisputeOpened, domain.DisputeClosed, domain.StaffNoteRecorded, domain.SpendLimitsSet,
		domain.AlertSettingsChanged, domain.LowBalanceAlerted, domain.BalanceRecovered, domain.ExpiryReminderSent:
		return dayRow{}, nil // not usage
	default:
		return dayRow{}, unhandled("usage_daily", ev)
	}
}

// Apply implements Projection: it sums what the batch adds to each
// (account, UTC day of the event's recording) and adds that to each row
// once, in one multi-row upsert; nothing needs reading first.
func (UsageDaily) Apply(ctx context.Context, tx pgx.Tx, t Tables, recs []eventstore.Record, evs []domain.Event) error {
	adds := map[usageKey]dayRow{}
	for i, rec := range recs {
		add, err := usageDayOf(evs[i])
		if err != nil {
			return err
		}
		if add == (dayRow{}) {
			continue
		}
		id, err := accountID(rec)
		if err != nil {
			return err
		}
		k := usageKey{account: id, day: rec.RecordedAt.UTC().Format(time.DateOnly)}
		adds[k] = adds[k].plus(add)
	}
	if len(adds) == 0 {
		return nil
	}
	keys := slices.SortedFunc(maps.Keys(adds), func(a, b usageKey) int {
		return cmp.Or(strings.Compare(a.account, b.account), strings.Compare(a.day, b.day))
	})
	n := len(keys)
	ids, days := make([]string, 0, n), make([]string, 0, n)
	credits, listings, vero, refunded := make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
	for _, k := range keys {
		a := adds[k]
		ids, days = append(ids, k.account), append(days, k.day)
		credits, listings, vero, refunded = append(credits, a.credits), append(listings, a.listings), append(vero, a.vero), append(refunded, a.refunded)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO `+t.Q("usage_daily")+` AS u (account_id, day, credits, listings, vero_checks, refunded)
		SELECT * FROM unnest($1::uuid[], $2::date[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[])
		ON CONFLICT (account_id, day) DO UPDATE SET credits = u.credits + excluded.credits, listings = u.listings + excluded.listings,
			vero_checks = u.vero_checks + excluded.vero_checks, refunded = u.refunded + excluded.refunded`,
		ids, days, credits, listings, vero, refunded); err != nil {
		return fmt.Errorf("write usage_daily: %w", err)
	}
	return nil
}
