package projections

import (
	"context"
	"errors"
	"fmt"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

func accountID(rec eventstore.Record) (string, error) {
	id, ok := domain.AccountIDFromStream(rec.StreamID)
	if !ok {
		return "", fmt.Errorf("stream %q is not an account stream", rec.StreamID)
	}
	return id, nil
}

// ErrUnhandledEvent is a projection's answer to an event type it has no case
// for. Every fold names every event type the codec knows, those that change
// nothing too, so that a new type fails the tests
// (TestEveryFoldHasACaseForEveryEventType) until each fold says what it does.
var ErrUnhandledEvent = errors.New("event type has no case in the projection")

func unhandled(projection string, ev domain.Event) error {
	return fmt.Errorf("%s: %w: %s", projection, ErrUnhandledEvent, ev.EventType())
}

// Profiles projects the dashboard's profile: identity, subscription, API key
// (encrypted), balance and counters.
type Profiles struct{}

// Name implements Projection.
func (Profiles) Name() string { return "profiles" }

// Tables implements Projection.
func (Profiles) Tables() []string { return []string{"profiles"} }

// Apply implements Projection.
func (Profiles) Apply(ctx context.Context, tx Writer, t Tables, rec eventstore.Record, ev domain.Event) error {
	id, err := accountID(rec)
	if err != nil {
		return err
	}
	tbl := t.Q("profiles")
	if e, ok := ev.(domain.AccountRegistered); ok {
		_, err := tx.Exec(ctx, `INSERT INTO `+tbl+` (account_id, email, registered_at, updated_at) VALUES ($1, $2, $3, $3)
			ON CONFLICT (account_id) DO NOTHING`, id, e.Email, rec.RecordedAt)
		return err
	}
	var set string
	var args []any
	switch e := ev.(type) {
	case domain.EmailVerified:
		set = `is_verified = true`
	case domain.APIKeyIssued:
		set, args = `api_key_prefix = $3, api_key_encrypted = $4`, []any{e.Prefix, e.Encrypted}
	case domain.APIKeyRotated:
		set, args = `api_key_prefix = $3, api_key_encrypted = $4`, []any{e.Prefix, e.Encrypted}
	case domain.SubscriptionActivated:
		set, args = `subscription_status = 'active', subscription_renewal_date = $3, subscription_ends_at = NULL`, []any{e.PeriodEnd}
	case domain.SubscriptionRenewed:
		set, args = `subscription_status = 'active', subscription_renewal_date = $3, subscription_ends_at = NULL`, []any{e.PeriodEnd}
	case domain.SubscriptionResumed:
		set, args = `subscription_status = 'active', subscription_renewal_date = $3, subscription_ends_at = NULL`, []any{e.PeriodEnd}
	case domain.SubscriptionPastDue:
		set = `subscription_status = 'past_due', subscription_ends_at = NULL`
	case domain.SubscriptionCancelled:
		set, args = `subscription_status = 'cancelling', subscription_renewal_date = NULL, subscription_ends_at = $3`, []any{e.EndsAt}
	case domain.SubscriptionEnded:
		set = `subscription_status = 'cancelled', subscription_renewal_date = NULL, subscription_ends_at = NULL`
	case domain.CreditsGranted:
		set, args = `credits_available = credits_available + $3`, []any{e.Amount}
	case domain.CreditsSpent:
		set, args = `credits_available = credits_available - $3, credits_used = credits_used + $3`, []any{e.Amount}
	case domain.CreditsDebited:
		set, args = `credits_available = credits_available - $3`, []any{e.Amount}
	case domain.CreditsExpired:
		set, args = `credits_available = credits_available - $3`, []any{e.Amount}
	case domain.CreditsRevoked:
		set, args = `credits_available = credits_available - $3, credit_debt = credit_debt + $4`, []any{e.Amount, e.Debt}
	case domain.DebtRepaid:
		set, args = `credits_available = credits_available - $3, credit_debt = credit_debt - $3`, []any{e.Amount}
	case domain.DisputeOpened:
		set = `open_disputes = open_disputes + 1`
	case domain.DisputeClosed:
		set = `open_disputes = open_disputes - 1`
	case domain.ListingRequested:
		set = `listings_created = listings_created + 1`
	case domain.VeroCheckPerformed:
		set = `vero_checks = vero_checks + 1`
	case domain.SoftwareDownloaded:
		set = `downloads = downloads + 1`
	case domain.PasswordChanged, domain.PaymentRecorded, domain.PaymentRefunded, domain.StaffNoteRecorded:
		// Nothing the profile shows; only updated_at moves.
	default:
		return unhandled("profiles", ev)
	}
	if set != "" {
		set += ", "
	}
	_, err = tx.Exec(ctx, `UPDATE `+tbl+` SET `+set+`updated_at = $2 WHERE account_id = $1`,
		append([]any{id, rec.RecordedAt}, args...)...)
	return err
}

// UsageStatistics projects per account and day: credits used, listings
// created and VeRO checks.
type UsageStatistics struct{}

// Name implements Projection.
func (UsageStatistics) Name() string { return "usage_statistics" }

// Tables implements Projection.
func (UsageStatistics) Tables() []string { return []string{"usage_statistics"} }

// Apply implements Projection.
func (UsageStatistics) Apply(ctx context.Context, tx Writer, t Tables, rec eventstore.Record, ev domain.Event) error {
	var column string
	var n int64
	switch e := ev.(type) {
	case domain.CreditsSpent:
		column, n = "credits_used", e.Amount
	case domain.ListingRequested:
		column, n = "listings_created", 1
	case domain.VeroCheckPerformed:
		column, n = "vero_checks", 1
	case domain.AccountRegistered, domain.EmailVerified, domain.PasswordChanged, domain.APIKeyIssued, domain.APIKeyRotated,
		domain.SubscriptionActivated, domain.SubscriptionRenewed, domain.SubscriptionPastDue, domain.SubscriptionCancelled,
		domain.SubscriptionResumed, domain.SubscriptionEnded, domain.CreditsGranted, domain.CreditsDebited, domain.CreditsExpired,
		domain.CreditsRevoked, domain.DebtRepaid, domain.SoftwareDownloaded, domain.PaymentRecorded, domain.PaymentRefunded,
		domain.DisputeOpened, domain.DisputeClosed, domain.StaffNoteRecorded:
		return nil // not usage
	default:
		return unhandled("usage_statistics", ev)
	}
	id, err := accountID(rec)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO `+t.Q("usage_statistics")+` AS u (account_id, day, `+column+`) VALUES ($1, $2, $3)
		ON CONFLICT (account_id, day) DO UPDATE SET `+column+` = u.`+column+` + excluded.`+column,
		id, rec.RecordedAt.UTC().Format("2006-01-02"), n)
	return err
}

// Transactions projects the payments list: one row per payment, its status
// following the latest recorded outcome.
type Transactions struct{}

// Name implements Projection.
func (Transactions) Name() string { return "transactions" }

// Tables implements Projection.
func (Transactions) Tables() []string { return []string{"transactions"} }

// Apply implements Projection.
func (Transactions) Apply(ctx context.Context, tx Writer, t Tables, rec eventstore.Record, ev domain.Event) error {
	var paymentID, status string
	switch e := ev.(type) {
	case domain.PaymentRefunded:
		paymentID, status = e.PaymentID, e.Status
	case domain.DisputeOpened:
		paymentID, status = e.PaymentID, domain.PaymentDisputed
	case domain.DisputeClosed:
		paymentID, status = e.PaymentID, e.PaymentStatus
	case domain.PaymentRecorded:
		// Below: it makes or replaces the payment's row.
	case domain.AccountRegistered, domain.EmailVerified, domain.PasswordChanged, domain.APIKeyIssued, domain.APIKeyRotated,
		domain.SubscriptionActivated, domain.SubscriptionRenewed, domain.SubscriptionPastDue, domain.SubscriptionCancelled,
		domain.SubscriptionResumed, domain.SubscriptionEnded, domain.CreditsGranted, domain.CreditsSpent, domain.CreditsDebited,
		domain.CreditsExpired, domain.CreditsRevoked, domain.DebtRepaid, domain.ListingRequested, domain.VeroCheckPerformed,
		domain.SoftwareDownloaded, domain.StaffNoteRecorded:
		return nil // not a payment's
	default:
		return unhandled("transactions", ev)
	}
	if paymentID != "" {
		_, err := tx.Exec(ctx, `UPDATE `+t.Q("transactions")+` SET status = $2 WHERE payment_id = $1`, paymentID, status)
		return err
	}
	e, ok := ev.(domain.PaymentRecorded)
	if !ok {
		return nil
	}
	id, err := accountID(rec)
	if err != nil {
		return err
	}
	var invoice any
	if e.InvoiceURL != "" {
		invoice = e.InvoiceURL
	}
	_, err = tx.Exec(ctx, `INSERT INTO `+t.Q("transactions")+` AS x
		(payment_id, account_id, transaction_date, description, amount_cents, status, invoice_url)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (payment_id) DO UPDATE SET description = excluded.description, amount_cents = excluded.amount_cents,
			status = excluded.status, invoice_url = coalesce(excluded.invoice_url, x.invoice_url)`,
		e.PaymentID, id, rec.RecordedAt, e.Description, e.AmountCents, e.Status, invoice)
	return err
}
