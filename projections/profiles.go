package projections

import (
	"context"
	"fmt"
	"maps"
	"reflect"
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

// Profile is an account's row in profiles, declared once: each field's db
// tag names its column ("-": not a column), from which the projection's load
// and upsert and Reader.Profile's SELECT are derived (profileColumns); its
// json tag is the name GET /api/user/profile answers it under ("-": not
// answered, or answered by the handler in a shape of its own). The fields
// answered keep their order: it is the answer's. docs/application-layer.md
// says how to add one.
type Profile struct {
	AccountID               string     `db:"account_id,uuid" json:"-"`
	Email                   string     `db:"email" json:"email"`
	IsVerified              bool       `db:"is_verified" json:"isVerified"`
	SubscriptionStatus      string     `db:"subscription_status" json:"-"`       // answered as StatusAt(now)
	SubscriptionRenewalDate *time.Time `db:"subscription_renewal_date" json:"-"` // answered in RFC 3339
	SubscriptionEndsAt      *time.Time `db:"subscription_ends_at" json:"-"`      // while cancelling
	CreditDebt              int64      `db:"credit_debt" json:"creditDebt"`      // credits owed; the next grant repays them first
	SpendingFrozen          bool       `db:"-" json:"spendingFrozen"`            // OpenDisputes > 0, set by Reader.Profile
	APIKeyPrefix            string     `db:"api_key_prefix" json:"-"`
	APIKeyEncrypted         string     `db:"api_key_encrypted" json:"-"` // answered decrypted (query.Profile)
	CreditsAvailable        int64      `db:"credits_available" json:"creditsAvailable"`
	CreditsUsed             int64      `db:"credits_used" json:"-"`
	ListingsCreated         int64      `db:"listings_created" json:"listingsCreated"`
	VeroChecks              int64      `db:"vero_checks" json:"veroChecks"`
	Downloads               int64      `db:"downloads" json:"-"`
	OpenDisputes            int32      `db:"open_disputes" json:"-"`
	LowBalance              bool       `db:"low_balance" json:"lowBalance"` // a low-balance alert stands (issue 33)
	LowBalanceCredits       *int64     `db:"low_balance_credits" json:"-"`  // the alert settings (nil: off)
	ExpiringReminderDays    *int32     `db:"expiring_reminder_days" json:"-"`
	RegisteredAt            time.Time  `db:"registered_at" json:"-"`
	UpdatedAt               time.Time  `db:"updated_at" json:"-"`
	LastSpendAt             *time.Time `db:"last_spend_at" json:"lastSpendAt"` // the last metered spend's time; nil: none yet
}

// profileColumns is profiles' columns, from Profile's tags, once.
var profileColumns = newColumnTable(reflect.TypeFor[Profile]())

// foldProfile is the profile's fold: the row after ev, from the row before
// it (exists: there is one). It reads and writes nothing. AccountRegistered
// makes a missing row and changes nothing otherwise; every other event
// changes an existing row, at least its updated_at, and nothing when the row
// is missing. changed says whether the row is to be written.
func foldProfile(r Profile, exists bool, id string, rec eventstore.Record, ev domain.Event) (next Profile, changed bool, err error) {
	if e, ok := ev.(domain.AccountRegistered); ok {
		if exists {
			return r, false, nil
		}
		return Profile{AccountID: id, Email: e.Email, SubscriptionStatus: domain.StatusInactive, RegisteredAt: rec.RecordedAt, UpdatedAt: rec.RecordedAt}, true, nil
	}
	if spent, ok := domain.SpendOf(ev); ok { // alone, or carried by a listing or a VeRO check
		at := rec.RecordedAt
		r.CreditsUsed, r.LastSpendAt = r.CreditsUsed+spent.Amount, &at
	}
	switch e := ev.(type) {
	case domain.EmailVerified:
		r.IsVerified = true
	case domain.APIKeyIssued:
		r.APIKeyPrefix, r.APIKeyEncrypted = e.Prefix, e.Encrypted
	case domain.APIKeyRotated:
		if !e.Secondary { // the profile shows the primary ("Default") key
			r.APIKeyPrefix, r.APIKeyEncrypted = e.Prefix, e.Encrypted
		}
	case domain.SubscriptionActivated, domain.SubscriptionRenewed, domain.SubscriptionResumed,
		domain.SubscriptionPastDue, domain.SubscriptionCancelled, domain.SubscriptionEnded:
		// The status and dates the account itself records: one rule, in
		// domain/subscription.go, not worked out again here.
		sub := domain.SubscriptionSummary{Status: r.SubscriptionStatus, RenewsAt: r.SubscriptionRenewalDate, EndsAt: r.SubscriptionEndsAt}
		next, _ := sub.After(ev, rec.RecordedAt)
		r.SubscriptionStatus, r.SubscriptionRenewalDate, r.SubscriptionEndsAt = next.Status, next.RenewsAt, next.EndsAt
	case domain.CreditsRevoked:
		r.CreditDebt += e.Debt
	case domain.DebtRepaid:
		r.CreditDebt -= e.Amount
	case domain.CreditsSpent:
		// Its charge, above.
	case domain.CreditsGranted, domain.CreditsDebited, domain.CreditsExpired:
		// The balance alone, below.
	case domain.DisputeOpened:
		r.OpenDisputes++
	case domain.DisputeClosed:
		r.OpenDisputes--
	case domain.ListingRequested:
		r.ListingsCreated++
	case domain.VeroCheckPerformed:
		r.VeroChecks++
	case domain.SoftwareDownloaded:
		r.Downloads++
	case domain.AlertSettingsChanged:
		r.LowBalanceCredits, r.ExpiringReminderDays = e.LowBalanceCredits, nil
		if e.ExpiringReminderDays != nil {
			d := int32(*e.ExpiringReminderDays)
			r.ExpiringReminderDays = &d
		}
		if e.LowBalanceCredits == nil {
			r.LowBalance = false // as the account's own fold: no threshold, no standing alert
		}
	case domain.LowBalanceAlerted:
		r.LowBalance = true
	case domain.BalanceRecovered:
		r.LowBalance = false
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
	r.CreditsAvailable += domain.CreditDelta(ev) // how each event moves the balance: the domain's one rule
	if !exists {
		return r, false, nil
	}
	r.UpdatedAt = rec.RecordedAt
	return r, true, nil
}

// Apply implements Projection: it loads the profiles the batch touches (one
// query), folds the events into them in memory (foldProfile) and writes each
// changed row once (writeProfiles: one multi-row update, and an insert of
// the rows the batch made).
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
	touched, made := map[string]bool{}, map[string]bool{}
	for i, rec := range recs {
		r, exists := rows[ids[i]]
		next, changed, err := foldProfile(r, exists, ids[i], rec, evs[i])
		if err != nil {
			return err
		}
		if changed {
			rows[ids[i]], touched[ids[i]] = next, true
			made[ids[i]] = made[ids[i]] || !exists
		}
	}
	return writeProfiles(ctx, tx, tbl, rows, slices.Sorted(maps.Keys(touched)), made)
}

// loadProfiles reads the rows of the distinct accounts among ids.
func loadProfiles(ctx context.Context, tx pgx.Tx, tbl string, ids []string) (map[string]Profile, error) {
	distinct := slices.Compact(slices.Sorted(slices.Values(ids)))
	rows := make(map[string]Profile, len(distinct))
	q, err := tx.Query(ctx, `SELECT `+profileColumns.selectList+` FROM `+tbl+` WHERE account_id = ANY($1::text[]::uuid[])`, distinct)
	if err != nil {
		return nil, fmt.Errorf("load profiles: %w", err)
	}
	defer q.Close()
	dst := make([]any, 0, len(profileColumns.columns))
	for q.Next() {
		var r Profile
		if err := q.Scan(profileColumns.scanTargets(reflect.ValueOf(&r).Elem(), dst[:0])...); err != nil {
			return nil, fmt.Errorf("load profiles: %w", err)
		}
		rows[r.AccountID] = r
	}
	if err := q.Err(); err != nil {
		return nil, fmt.Errorf("load profiles: %w", err)
	}
	return rows, nil
}

// writeProfiles writes the rows of ids, each once: those loaded by an
// UPDATE, those the batch made (made) by an INSERT, each one multi-row
// statement from unnest's arrays (ids sorted: a fixed order of row locks).
// Not one upsert: INSERT … ON CONFLICT DO UPDATE locks each row before it
// updates it, a WAL record a row more; the batch's applier is the tables'
// only writer (applierKey), so the rows it loaded are there and the others
// are not (a row that is would fail the INSERT, never be counted twice).
func writeProfiles(ctx context.Context, tx pgx.Tx, tbl string, rows map[string]Profile, ids []string, made map[string]bool) error {
	var update, insert []reflect.Value
	values := make([]Profile, len(ids))
	for i, k := range ids {
		values[i] = rows[k]
		v := reflect.ValueOf(&values[i]).Elem()
		if made[k] {
			insert = append(insert, v)
		} else {
			update = append(update, v)
		}
	}
	if len(update) > 0 {
		tag, err := tx.Exec(ctx, `UPDATE `+tbl+` p SET `+profileColumns.sets+` FROM `+profileColumns.unnestArgs+` AS m(`+profileColumns.insertList+`)
			WHERE p.account_id = m.account_id`, profileColumns.arrays(update)...)
		if err != nil {
			return fmt.Errorf("write profiles: %w", err)
		}
		if tag.RowsAffected() != int64(len(update)) {
			return fmt.Errorf("write profiles: %d of %d rows there", tag.RowsAffected(), len(update))
		}
	}
	if len(insert) > 0 {
		if _, err := tx.Exec(ctx, `INSERT INTO `+tbl+` (`+profileColumns.insertList+`) SELECT * FROM `+profileColumns.unnestArgs,
			profileColumns.arrays(insert)...); err != nil {
			return fmt.Errorf("make profiles: %w", err)
		}
	}
	return nil
}
