package projections

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// Profiles projects the dashboard's profile: identity, subscription, API key
// (encrypted), balance and counters.
type Profiles struct{}

// Name implements Projection.
func (Profiles) Name() string { return "profiles" }

// Tables implements Projection.
func (Profiles) Tables() []string { return []string{"profiles"} }

// profileRow is a profiles row in memory.
type profileRow struct {
	id, email, status, prefix, encrypted       string
	verified                                   bool
	renewal, endsAt                            *time.Time
	available, used, listings, vero, downloads int64
	debt                                       int64
	disputes                                   int32
	registered, updated                        time.Time
	// The alert settings (nil: off) and whether a low-balance alert stands.
	lowBalanceCredits *int64
	reminderDays      *int32
	lowBalance        bool
}

// foldProfile is the profile's fold: the row after ev, from the row before
// it (exists: there is one). It reads and writes nothing. AccountRegistered
// makes a missing row and changes nothing otherwise; every other event
// changes an existing row, at least its updated_at, and nothing when the row
// is missing. changed says whether the row is to be written.
func foldProfile(r profileRow, exists bool, id string, rec eventstore.Record, ev domain.Event) (next profileRow, changed bool, err error) {
	if e, ok := ev.(domain.AccountRegistered); ok {
		if exists {
			return r, false, nil
		}
		return profileRow{id: id, email: e.Email, status: domain.StatusInactive, registered: rec.RecordedAt, updated: rec.RecordedAt}, true, nil
	}
	switch e := ev.(type) {
	case domain.EmailVerified:
		r.verified = true
	case domain.APIKeyIssued:
		r.prefix, r.encrypted = e.Prefix, e.Encrypted
	case domain.APIKeyRotated:
		if !e.Secondary { // the profile shows the primary ("Default") key
			r.prefix, r.encrypted = e.Prefix, e.Encrypted
		}
	case domain.SubscriptionActivated, domain.SubscriptionRenewed, domain.SubscriptionResumed,
		domain.SubscriptionPastDue, domain.SubscriptionCancelled, domain.SubscriptionEnded:
		// The status and dates the account itself records: one rule, in
		// domain/subscription.go, not worked out again here.
		sub := domain.SubscriptionSummary{Status: r.status, RenewsAt: r.renewal, EndsAt: r.endsAt}
		next, _ := sub.After(ev, rec.RecordedAt)
		r.status, r.renewal, r.endsAt = next.Status, next.RenewsAt, next.EndsAt
	case domain.CreditsSpent:
		r.used += e.Amount
	case domain.CreditsRevoked:
		r.debt += e.Debt
	case domain.DebtRepaid:
		r.debt -= e.Amount
	case domain.CreditsGranted, domain.CreditsDebited, domain.CreditsExpired:
		// The balance alone, below.
	case domain.DisputeOpened:
		r.disputes++
	case domain.DisputeClosed:
		r.disputes--
	case domain.ListingRequested:
		r.listings++
	case domain.VeroCheckPerformed:
		r.vero++
	case domain.SoftwareDownloaded:
		r.downloads++
	case domain.AlertSettingsChanged:
		r.lowBalanceCredits, r.reminderDays = e.LowBalanceCredits, nil
		if e.ExpiringReminderDays != nil {
			d := int32(*e.ExpiringReminderDays)
			r.reminderDays = &d
		}
		if e.LowBalanceCredits == nil {
			r.lowBalance = false // as the account's own fold: no threshold, no standing alert
		}
	case domain.LowBalanceAlerted:
		r.lowBalance = true
	case domain.BalanceRecovered:
		r.lowBalance = false
	case domain.PasswordChanged, domain.PaymentRecorded, domain.PaymentRefunded, domain.StaffNoteRecorded,
		domain.ExpiryReminderSent, domain.SpendLimitsSet, domain.SpendLimitReached,
		domain.WebhookEndpointAdded, domain.WebhookSecretRolled, domain.WebhookEndpointRemoved, domain.WebhookEndpointDisabled,
		domain.AutoRechargeSet, domain.PaymentMethodSaved, domain.PaymentMethodRemoved, domain.RechargeRequested,
		domain.RechargeFailed, domain.RechargeNeedsAction, domain.AutoRechargeDisabled,
		domain.APIKeyCreated, domain.APIKeyRevoked, domain.APIKeyExpired:
		// Nothing the profile shows; only updated_at moves.
	default:
		return r, false, unhandled("profiles", ev)
	}
	r.available += domain.CreditDelta(ev) // how each event moves the balance: the domain's one rule
	if !exists {
		return r, false, nil
	}
	r.updated = rec.RecordedAt
	return r, true, nil
}

// Apply implements Projection: it loads the profiles the batch touches (one
// query), folds the events into them in memory (foldProfile) and writes each
// changed row once (one multi-row upsert).
func (Profiles) Apply(ctx context.Context, tx pgx.Tx, t Tables, recs []eventstore.Record, evs []domain.Event) error {
	tbl := t.Q("profiles")
	ids := make([]string, len(recs))
	for i, rec := range recs {
		id, err := accountID(rec)
		if err != nil {
			return err
		}
		ids[i] = id
	}
	rows, err := loadProfiles(ctx, tx, tbl, ids)
	if err != nil {
		return err
	}
	touched := map[string]bool{}
	for i, rec := range recs {
		r, exists := rows[ids[i]]
		next, changed, err := foldProfile(r, exists, ids[i], rec, evs[i])
		if err != nil {
			return err
		}
		if changed {
			rows[ids[i]], touched[ids[i]] = next, true
		}
	}
	return writeProfiles(ctx, tx, tbl, rows, slices.Sorted(maps.Keys(touched)))
}

// loadProfiles reads the rows of the distinct accounts among ids.
func loadProfiles(ctx context.Context, tx pgx.Tx, tbl string, ids []string) (map[string]profileRow, error) {
	distinct := slices.Compact(slices.Sorted(slices.Values(ids)))
	rows := make(map[string]profileRow, len(distinct))
	q, err := tx.Query(ctx, `SELECT account_id::text, email, is_verified, subscription_status, subscription_renewal_date,
			api_key_prefix, api_key_encrypted, credits_available, credits_used, listings_created, vero_checks, downloads,
			registered_at, updated_at, subscription_ends_at, credit_debt, open_disputes,
			low_balance_credits, expiring_reminder_days, low_balance
		FROM `+tbl+` WHERE account_id = ANY($1::uuid[])`, distinct)
	if err != nil {
		return nil, fmt.Errorf("load profiles: %w", err)
	}
	defer q.Close()
	for q.Next() {
		var r profileRow
		if err := q.Scan(&r.id, &r.email, &r.verified, &r.status, &r.renewal, &r.prefix, &r.encrypted,
			&r.available, &r.used, &r.listings, &r.vero, &r.downloads, &r.registered, &r.updated, &r.endsAt, &r.debt, &r.disputes,
			&r.lowBalanceCredits, &r.reminderDays, &r.lowBalance); err != nil {
			return nil, fmt.Errorf("load profiles: %w", err)
		}
		rows[r.id] = r
	}
	if err := q.Err(); err != nil {
		return nil, fmt.Errorf("load profiles: %w", err)
	}
	return rows, nil
}

// writeProfiles writes the rows of ids, each once, in one statement (ids
// sorted: a fixed order of row locks).
func writeProfiles(ctx context.Context, tx pgx.Tx, tbl string, rows map[string]profileRow, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	n := len(ids)
	var (
		id, email, status, prefix, encrypted       = make([]string, 0, n), make([]string, 0, n), make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
		verified                                   = make([]bool, 0, n)
		renewal, endsAt                            = make([]*time.Time, 0, n), make([]*time.Time, 0, n)
		available, used, listings, vero, downloads = make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
		registered, updated                        = make([]time.Time, 0, n), make([]time.Time, 0, n)
		debt                                       = make([]int64, 0, n)
		disputes                                   = make([]int32, 0, n)
		lowCredits                                 = make([]*int64, 0, n)
		reminderDays                               = make([]*int32, 0, n)
		lowBalance                                 = make([]bool, 0, n)
	)
	for _, k := range ids {
		r := rows[k]
		id, email, status, prefix, encrypted = append(id, r.id), append(email, r.email), append(status, r.status), append(prefix, r.prefix), append(encrypted, r.encrypted)
		verified, renewal, endsAt = append(verified, r.verified), append(renewal, r.renewal), append(endsAt, r.endsAt)
		available, used, listings, vero, downloads = append(available, r.available), append(used, r.used), append(listings, r.listings), append(vero, r.vero), append(downloads, r.downloads)
		registered, updated = append(registered, r.registered), append(updated, r.updated)
		debt, disputes = append(debt, r.debt), append(disputes, r.disputes)
		lowCredits, reminderDays, lowBalance = append(lowCredits, r.lowBalanceCredits), append(reminderDays, r.reminderDays), append(lowBalance, r.lowBalance)
	}
	_, err := tx.Exec(ctx, `INSERT INTO `+tbl+` (account_id, email, is_verified, subscription_status, subscription_renewal_date,
			api_key_prefix, api_key_encrypted, credits_available, credits_used, listings_created, vero_checks, downloads,
			registered_at, updated_at, subscription_ends_at, credit_debt, open_disputes,
			low_balance_credits, expiring_reminder_days, low_balance)
		SELECT * FROM unnest($1::uuid[], $2::text[], $3::bool[], $4::text[], $5::timestamptz[], $6::text[], $7::text[],
			$8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[], $13::timestamptz[], $14::timestamptz[],
			$15::timestamptz[], $16::bigint[], $17::int[], $18::bigint[], $19::int[], $20::bool[])
		ON CONFLICT (account_id) DO UPDATE SET email = excluded.email, is_verified = excluded.is_verified,
			subscription_status = excluded.subscription_status, subscription_renewal_date = excluded.subscription_renewal_date,
			api_key_prefix = excluded.api_key_prefix, api_key_encrypted = excluded.api_key_encrypted,
			credits_available = excluded.credits_available, credits_used = excluded.credits_used,
			listings_created = excluded.listings_created, vero_checks = excluded.vero_checks, downloads = excluded.downloads,
			registered_at = excluded.registered_at, updated_at = excluded.updated_at,
			subscription_ends_at = excluded.subscription_ends_at, credit_debt = excluded.credit_debt, open_disputes = excluded.open_disputes,
			low_balance_credits = excluded.low_balance_credits, expiring_reminder_days = excluded.expiring_reminder_days,
			low_balance = excluded.low_balance`,
		id, email, verified, status, renewal, prefix, encrypted, available, used, listings, vero, downloads, registered, updated,
		endsAt, debt, disputes, lowCredits, reminderDays, lowBalance)
	if err != nil {
		return fmt.Errorf("write profiles: %w", err)
	}
	return nil
}
