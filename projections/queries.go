package projections

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/replica"
)

// Reader answers the dashboard's queries from the read tables. It never
// reads the event store.
type Reader struct {
	pool  *pgxpool.Pool
	reads *replica.Reads // picks the dashboard's reads' pool; nil: pool
}

// NewReader returns a Reader on pool.
func NewReader(pool *pgxpool.Pool) *Reader { return &Reader{pool: pool} }

// WithReads returns the Reader with the dashboard's own reads (profile,
// usage, transactions) on the pool reads picks (a standby that has replayed
// the seller's writes, else the primary); the staff console's stay on the
// primary.
func (r *Reader) WithReads(reads *replica.Reads) *Reader {
	c := *r
	c.reads = reads
	return &c
}

func (r *Reader) db(ctx context.Context) *pgxpool.Pool {
	if r.reads == nil {
		return r.pool
	}
	return r.reads.For(ctx)
}

// ErrNoProfile is returned for an account whose profile row does not exist
// (yet: the projector may not have applied its registration).
var ErrNoProfile = errors.New("no profile for this account")

// StatusAt is the subscription status at now (domain.StatusAt): a
// cancelling subscription whose end has passed is cancelled, before the
// event that records it has been projected.
func (p Profile) StatusAt(now time.Time) string {
	return domain.StatusAt(p.SubscriptionStatus, p.SubscriptionEndsAt, now)
}

// Profile returns the profile of accountID (every column of its row), or
// ErrNoProfile.
func (r *Reader) Profile(ctx context.Context, accountID string) (Profile, error) {
	var p Profile
	err := r.db(ctx).QueryRow(ctx, `SELECT `+profileColumns.selectList+` FROM profiles WHERE account_id = $1`, accountID).
		Scan(profileColumns.scanTargets(reflect.ValueOf(&p).Elem(), nil)...)
	if errors.Is(err, pgx.ErrNoRows) {
		return Profile{}, ErrNoProfile
	}
	if err != nil {
		return Profile{}, fmt.Errorf("load profile: %w", err)
	}
	p.SpendingFrozen = p.OpenDisputes > 0
	return p, nil
}

// UsageCounts are the metered operations of one period.
type UsageCounts struct {
	CreditsUsed     int64
	ListingsCreated int64
	VeroChecks      int64
}

// Usage is an account's usage today, this week, this month and in total.
// Days are UTC days and weeks start on Monday.
type Usage struct {
	Today, ThisWeek, ThisMonth, Total UsageCounts
}

// Usage sums accountID's usage_statistics rows for the periods around now.
func (r *Reader) Usage(ctx context.Context, accountID string, now time.Time) (Usage, error) {
	today, week, month := periodStarts(now)
	rows, err := r.db(ctx).Query(ctx, `SELECT p.period, coalesce(sum(u.credits_used), 0)::bigint,
			coalesce(sum(u.listings_created), 0)::bigint, coalesce(sum(u.vero_checks), 0)::bigint
		FROM (VALUES ('today', $2::date), ('week', $3::date), ('month', $4::date), ('total', '-infinity'::date)) AS p (period, since)
		LEFT JOIN usage_statistics u ON u.account_id = $1 AND u.day >= p.since
		GROUP BY p.period`, accountID, today, week, month)
	if err != nil {
		return Usage{}, fmt.Errorf("load usage: %w", err)
	}
	var u Usage
	periods := map[string]*UsageCounts{"today": &u.Today, "week": &u.ThisWeek, "month": &u.ThisMonth, "total": &u.Total}
	var period string
	var c UsageCounts
	_, err = pgx.ForEachRow(rows, []any{&period, &c.CreditsUsed, &c.ListingsCreated, &c.VeroChecks}, func() error {
		*periods[period] = c
		return nil
	})
	if err != nil {
		return Usage{}, fmt.Errorf("load usage: %w", err)
	}
	return u, nil
}

// periodStarts returns the first day of now's UTC day, week (from Monday)
// and month, as dates.
func periodStarts(now time.Time) (today, week, month string) {
	d := now.UTC().Truncate(24 * time.Hour)
	sinceMonday := (int(d.Weekday()) + 6) % 7
	const date = "2006-01-02"
	return d.Format(date), d.AddDate(0, 0, -sinceMonday).Format(date), d.AddDate(0, 0, 1-d.Day()).Format(date)
}

// Transaction is a row of the transactions list.
type Transaction struct {
	ID          string
	Date        time.Time
	Description string
	AmountCents int64
	Status      string
	InvoiceURL  string // empty when there is none
	Receipt     bool   // it has a receipt (query.HasReceipt), set by the query
}

// Payment is one payment of the transactions list with what its receipt
// shows beyond the list's columns (GET /api/transactions/{id}).
type Payment struct {
	Transaction
	Email         string // the account's
	Credits       int64  // bought; 0 when the payment names none
	RefundedCents int64  // refunded so far, in total
	Card          *domain.Card
}

// Payment returns accountID's payment paymentID; found is false when the
// account has no such payment (another account's included).
func (r *Reader) Payment(ctx context.Context, accountID, paymentID string) (p Payment, found bool, err error) {
	var brand, last4 *string
	err = r.db(ctx).QueryRow(ctx, `SELECT t.payment_id, t.transaction_date, t.description, t.amount_cents, t.status,
			coalesce(t.invoice_url, ''), coalesce(pr.email, ''), t.credits, t.refunded_cents, t.card_brand, t.card_last4
		FROM transactions t LEFT JOIN profiles pr ON pr.account_id = t.account_id
		WHERE t.account_id = $1 AND t.payment_id = $2`, accountID, paymentID).
		Scan(&p.ID, &p.Date, &p.Description, &p.AmountCents, &p.Status, &p.InvoiceURL, &p.Email, &p.Credits,
			&p.RefundedCents, &brand, &last4)
	if errors.Is(err, pgx.ErrNoRows) {
		return Payment{}, false, nil
	}
	if err != nil {
		return Payment{}, false, fmt.Errorf("load payment: %w", err)
	}
	if brand != nil && last4 != nil {
		p.Card = &domain.Card{Brand: *brand, Last4: *last4}
	}
	return p, true, nil
}

// Transactions returns accountID's payments, newest first.
func (r *Reader) Transactions(ctx context.Context, accountID string) ([]Transaction, error) {
	rows, err := r.db(ctx).Query(ctx, `SELECT payment_id, transaction_date, description, amount_cents, status, coalesce(invoice_url, '')
		FROM transactions WHERE account_id = $1 ORDER BY transaction_date DESC, payment_id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("load transactions: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Transaction, error) {
		var t Transaction
		err := row.Scan(&t.ID, &t.Date, &t.Description, &t.AmountCents, &t.Status, &t.InvoiceURL)
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("load transactions: %w", err)
	}
	return list, nil
}
