package projections

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

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
	switch e := ev.(type) {
	case domain.CreditsSpent:
		return usageRow{credits: e.Amount}, nil
	case domain.ListingRequested:
		return usageRow{listings: 1}, nil
	case domain.VeroCheckPerformed:
		return usageRow{vero: 1}, nil
	case domain.AccountRegistered, domain.EmailVerified, domain.PasswordChanged, domain.APIKeyIssued, domain.APIKeyRotated,
		domain.SubscriptionActivated, domain.SubscriptionRenewed, domain.SubscriptionPastDue, domain.SubscriptionCancelled,
		domain.SubscriptionResumed, domain.SubscriptionEnded, domain.CreditsGranted, domain.CreditsDebited, domain.CreditsExpired,
		domain.CreditsRevoked, domain.DebtRepaid, domain.SoftwareDownloaded, domain.PaymentRecorded, domain.PaymentRefunded,
		domain.DisputeOpened, domain.DisputeClosed, domain.StaffNoteRecorded:
		return usageRow{}, nil // not usage
	default:
		return usageRow{}, unhandled("usage_statistics", ev)
	}
}

// Apply implements Projection: it sums what the batch adds to each (account,
// day) and adds that to each row once, in one multi-row upsert; nothing needs
// reading first.
func (UsageStatistics) Apply(ctx context.Context, tx pgx.Tx, t Tables, recs []eventstore.Record, evs []domain.Event) error {
	adds := map[usageKey]usageRow{}
	for i, rec := range recs {
		add, err := usageOf(evs[i])
		if err != nil {
			return err
		}
		if add == (usageRow{}) {
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
	ids, days, credits, listings, vero := make([]string, 0, n), make([]string, 0, n), make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
	for _, k := range keys {
		a := adds[k]
		ids, days, credits, listings, vero = append(ids, k.account), append(days, k.day), append(credits, a.credits), append(listings, a.listings), append(vero, a.vero)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO `+t.Q("usage_statistics")+` AS u (account_id, day, credits_used, listings_created, vero_checks)
		SELECT * FROM unnest($1::uuid[], $2::date[], $3::bigint[], $4::bigint[], $5::bigint[])
		ON CONFLICT (account_id, day) DO UPDATE SET credits_used = u.credits_used + excluded.credits_used,
			listings_created = u.listings_created + excluded.listings_created, vero_checks = u.vero_checks + excluded.vero_checks`,
		ids, days, credits, listings, vero); err != nil {
		return fmt.Errorf("write usage_statistics: %w", err)
	}
	return nil
}

// Transactions projects the payments list: one row per payment, its status
// following the latest recorded outcome.
type Transactions struct{}

// Name implements Projection.
func (Transactions) Name() string { return "transactions" }

// Tables implements Projection.
func (Transactions) Tables() []string { return []string{"transactions"} }

// transactionRow is a transactions row in memory.
type transactionRow struct {
	paymentID, accountID, description, status string
	date                                      time.Time
	amountCents                               int64
	invoiceURL                                *string
}

// paymentOf names the payment whose row ev changes ("" for none).
func paymentOf(ev domain.Event) string {
	switch e := ev.(type) {
	case domain.PaymentRecorded:
		return e.PaymentID
	case domain.PaymentRefunded:
		return e.PaymentID
	case domain.DisputeOpened:
		return e.PaymentID
	case domain.DisputeClosed:
		return e.PaymentID
	}
	return ""
}

// foldTransaction is the payments list's fold: the payment's row after ev,
// from the row before it (exists: there is one). PaymentRecorded makes or
// replaces the row (keeping its date, account and an invoice it does not
// name); a refund or dispute sets the status of an existing row. It reads and
// writes nothing; changed says whether the row is to be written.
func foldTransaction(r transactionRow, exists bool, rec eventstore.Record, ev domain.Event) (next transactionRow, changed bool, err error) {
	switch e := ev.(type) {
	case domain.PaymentRecorded:
		if !exists {
			id, err := accountID(rec)
			if err != nil {
				return r, false, err
			}
			r = transactionRow{paymentID: e.PaymentID, accountID: id, date: rec.RecordedAt}
		}
		r.description, r.amountCents, r.status = e.Description, e.AmountCents, e.Status
		if e.InvoiceURL != "" {
			url := e.InvoiceURL
			r.invoiceURL = &url
		}
		return r, true, nil
	case domain.PaymentRefunded:
		r.status = e.Status
	case domain.DisputeOpened:
		r.status = domain.PaymentDisputed
	case domain.DisputeClosed:
		r.status = e.PaymentStatus
	case domain.AccountRegistered, domain.EmailVerified, domain.PasswordChanged, domain.APIKeyIssued, domain.APIKeyRotated,
		domain.SubscriptionActivated, domain.SubscriptionRenewed, domain.SubscriptionPastDue, domain.SubscriptionCancelled,
		domain.SubscriptionResumed, domain.SubscriptionEnded, domain.CreditsGranted, domain.CreditsSpent, domain.CreditsDebited,
		domain.CreditsExpired, domain.CreditsRevoked, domain.DebtRepaid, domain.ListingRequested, domain.VeroCheckPerformed,
		domain.SoftwareDownloaded, domain.StaffNoteRecorded:
		return r, false, nil // not a payment's
	default:
		return r, false, unhandled("transactions", ev)
	}
	return r, exists && r.paymentID != "", nil // an outcome that names no payment changes no row
}

// Apply implements Projection: when the batch names payments, it loads
// their rows (one query), folds the events into them (foldTransaction) and
// writes each changed row once (one multi-row upsert). A batch of spends
// names none and costs nothing.
func (Transactions) Apply(ctx context.Context, tx pgx.Tx, t Tables, recs []eventstore.Record, evs []domain.Event) error {
	tbl := t.Q("transactions")
	var payments []string
	for _, ev := range evs {
		if p := paymentOf(ev); p != "" {
			payments = append(payments, p)
		}
	}
	rows := map[string]transactionRow{}
	if len(payments) > 0 {
		q, err := tx.Query(ctx, `SELECT payment_id, account_id::text, transaction_date, description, amount_cents, status, invoice_url
			FROM `+tbl+` WHERE payment_id = ANY($1)`, payments)
		if err != nil {
			return fmt.Errorf("load transactions: %w", err)
		}
		for q.Next() {
			var r transactionRow
			if err := q.Scan(&r.paymentID, &r.accountID, &r.date, &r.description, &r.amountCents, &r.status, &r.invoiceURL); err != nil {
				q.Close()
				return fmt.Errorf("load transactions: %w", err)
			}
			rows[r.paymentID] = r
		}
		q.Close()
		if err := q.Err(); err != nil {
			return fmt.Errorf("load transactions: %w", err)
		}
	}
	touched := map[string]bool{}
	for i, rec := range recs {
		id := paymentOf(evs[i])
		r, exists := rows[id]
		next, changed, err := foldTransaction(r, exists, rec, evs[i])
		if err != nil {
			return err
		}
		if changed {
			rows[id], touched[id] = next, true
		}
	}
	if len(touched) == 0 {
		return nil
	}
	n := len(touched)
	ids, accounts, descriptions, statuses := make([]string, 0, n), make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
	dates, amounts, invoices := make([]time.Time, 0, n), make([]int64, 0, n), make([]*string, 0, n)
	for _, k := range slices.Sorted(maps.Keys(touched)) {
		r := rows[k]
		ids, accounts, descriptions, statuses = append(ids, r.paymentID), append(accounts, r.accountID), append(descriptions, r.description), append(statuses, r.status)
		dates, amounts, invoices = append(dates, r.date), append(amounts, r.amountCents), append(invoices, r.invoiceURL)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO `+tbl+` (payment_id, account_id, transaction_date, description, amount_cents, status, invoice_url)
		SELECT * FROM unnest($1::text[], $2::uuid[], $3::timestamptz[], $4::text[], $5::bigint[], $6::text[], $7::text[])
		ON CONFLICT (payment_id) DO UPDATE SET description = excluded.description, amount_cents = excluded.amount_cents,
			status = excluded.status, invoice_url = excluded.invoice_url`,
		ids, accounts, dates, descriptions, amounts, statuses, invoices); err != nil {
		return fmt.Errorf("write transactions: %w", err)
	}
	return nil
}
