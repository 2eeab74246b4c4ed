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
	amountCents, credits, refundedCents       int64
	invoiceURL, cardBrand, cardLast4          *string
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
// replaces the row (keeping its date, account, and an invoice or card it
// does not name); a refund (its status and the amount refunded so far) or dispute sets the status of an existing row. It reads and
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
		r.description, r.amountCents, r.status, r.credits = e.Description, e.AmountCents, e.Status, e.Credits
		if e.InvoiceURL != "" {
			url := e.InvoiceURL
			r.invoiceURL = &url
		}
		if e.Card != nil {
			brand, last4 := e.Card.Brand, e.Card.Last4
			r.cardBrand, r.cardLast4 = &brand, &last4
		}
		return r, true, nil
	case domain.PaymentRefunded:
		r.status, r.refundedCents = e.Status, e.AmountCents
	case domain.DisputeOpened:
		r.status = domain.PaymentDisputed
	case domain.DisputeClosed:
		r.status = e.PaymentStatus
	case domain.AccountRegistered, domain.EmailVerified, domain.PasswordChanged, domain.APIKeyIssued, domain.APIKeyRotated,
		domain.APIKeyCreated, domain.APIKeyRevoked, domain.APIKeyExpired,
		domain.SubscriptionActivated, domain.SubscriptionRenewed, domain.SubscriptionPastDue, domain.SubscriptionCancelled,
		domain.SubscriptionResumed, domain.SubscriptionEnded, domain.CreditsGranted, domain.CreditsSpent, domain.CreditsDebited,
		domain.CreditsExpired, domain.CreditsRevoked, domain.DebtRepaid, domain.ListingRequested, domain.VeroCheckPerformed,
		domain.SoftwareDownloaded, domain.StaffNoteRecorded, domain.SpendLimitsSet, domain.SpendLimitReached,
		domain.AlertSettingsChanged, domain.LowBalanceAlerted, domain.BalanceRecovered, domain.ExpiryReminderSent,
		domain.WebhookEndpointAdded, domain.WebhookSecretRolled, domain.WebhookEndpointRemoved, domain.WebhookEndpointDisabled,
		domain.AutoRechargeSet, domain.PaymentMethodSaved, domain.PaymentMethodRemoved, domain.RechargeRequested,
		domain.RechargeFailed, domain.RechargeNeedsAction, domain.AutoRechargeDisabled:
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
		q, err := tx.Query(ctx, `SELECT payment_id, account_id::text, transaction_date, description, amount_cents, status, invoice_url,
				credits, refunded_cents, card_brand, card_last4
			FROM `+tbl+` WHERE payment_id = ANY($1)`, payments)
		if err != nil {
			return fmt.Errorf("load transactions: %w", err)
		}
		for q.Next() {
			var r transactionRow
			if err := q.Scan(&r.paymentID, &r.accountID, &r.date, &r.description, &r.amountCents, &r.status, &r.invoiceURL,
				&r.credits, &r.refundedCents, &r.cardBrand, &r.cardLast4); err != nil {
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
	credits, refunded, brands, last4s := make([]int64, 0, n), make([]int64, 0, n), make([]*string, 0, n), make([]*string, 0, n)
	for _, k := range slices.Sorted(maps.Keys(touched)) {
		r := rows[k]
		ids, accounts, descriptions, statuses = append(ids, r.paymentID), append(accounts, r.accountID), append(descriptions, r.description), append(statuses, r.status)
		dates, amounts, invoices = append(dates, r.date), append(amounts, r.amountCents), append(invoices, r.invoiceURL)
		credits, refunded = append(credits, r.credits), append(refunded, r.refundedCents)
		brands, last4s = append(brands, r.cardBrand), append(last4s, r.cardLast4)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO `+tbl+` (payment_id, account_id, transaction_date, description, amount_cents, status, invoice_url,
			credits, refunded_cents, card_brand, card_last4)
		SELECT * FROM unnest($1::text[], $2::text[]::uuid[], $3::timestamptz[], $4::text[], $5::bigint[], $6::text[], $7::text[],
			$8::bigint[], $9::bigint[], $10::text[], $11::text[])
		ON CONFLICT (payment_id) DO UPDATE SET description = excluded.description, amount_cents = excluded.amount_cents,
			status = excluded.status, invoice_url = excluded.invoice_url, credits = excluded.credits,
			refunded_cents = excluded.refunded_cents, card_brand = excluded.card_brand, card_last4 = excluded.card_last4`,
		ids, accounts, dates, descriptions, amounts, statuses, invoices, credits, refunded, brands, last4s); err != nil {
		return fmt.Errorf("write transactions: %w", err)
	}
	return nil
}
