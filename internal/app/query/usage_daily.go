package query

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/replica"
)

// MaxRangeDays is the longest date range the usage and export reads take,
// both ends counted (issue 35, item 7).
const MaxRangeDays = 366

// DefaultRangeDays is the range a read covers when from and to are absent:
// the last 30 UTC days, today included (the dashboard's chart).
const DefaultRangeDays = 30

// Range is a span of whole UTC days, From and To included; KeyID, when
// set, keeps only the usage of that API key.
type Range struct {
	From, To time.Time
	KeyID    string
}

// Days is how many days r covers.
func (r Range) Days() int { return int(r.To.Sub(r.From).Hours()/24) + 1 }

// RangeError is a date range refused: Field is the query parameter it is
// about.
type RangeError struct{ Field, Message string }

func (e *RangeError) Error() string { return e.Field + ": " + e.Message }

// ParseRange reads from and to (YYYY-MM-DD, UTC days, both included). An
// absent to is today (at now); an absent from is DefaultRangeDays days
// before to. A malformed date, to before from or a range of more than
// MaxRangeDays days is a *RangeError naming the field.
func ParseRange(from, to string, now time.Time) (Range, error) {
	day := func(field, s string) (time.Time, error) {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return time.Time{}, &RangeError{Field: field, Message: field + " must be a date as YYYY-MM-DD"}
		}
		return d, nil
	}
	var r Range
	var err error
	if to == "" {
		r.To = now.UTC().Truncate(24 * time.Hour)
	} else if r.To, err = day("to", to); err != nil {
		return Range{}, err
	}
	if from == "" {
		r.From = r.To.AddDate(0, 0, -(DefaultRangeDays - 1))
	} else if r.From, err = day("from", from); err != nil {
		return Range{}, err
	}
	if r.To.Before(r.From) {
		return Range{}, &RangeError{Field: "to", Message: "to must not be before from"}
	}
	if r.Days() > MaxRangeDays {
		return Range{}, &RangeError{Field: "to", Message: fmt.Sprintf("the range from from to to must be at most %d days", MaxRangeDays)}
	}
	return r, nil
}

// Day is one UTC day of an account's usage (usage_daily).
type Day struct {
	Date       time.Time
	Credits    int64 // credits spent
	Listings   int64 // listings created
	VeroChecks int64
	Refunded   int64 // credits taken back by refunds
}

// Transaction is one row of the payments list (transactions).
type Transaction struct {
	ID          string
	Date        time.Time
	Description string
	AmountCents int64
	Status      string
	InvoiceURL  string
	Receipt     bool // it has a receipt (HasReceipt)
}

// Usage reads an account's usage per day and payments over a date range
// from the read tables, one row at a time: an export streams what it
// reads and never holds the rows.
type Usage struct {
	pool  *pgxpool.Pool
	reads *replica.Reads // picks the pool of each read (a standby that has replayed the seller's writes); nil: pool
}

// NewUsage returns a Usage on pool, its reads on the pool reads picks
// (nil: pool).
func NewUsage(pool *pgxpool.Pool, reads *replica.Reads) *Usage {
	return &Usage{pool: pool, reads: reads}
}

func (q *Usage) db(ctx context.Context) *pgxpool.Pool {
	if q.reads == nil {
		return q.pool
	}
	return q.reads.For(ctx)
}

// EachDay calls fn with every day of r, oldest first; a day without usage
// (no usage_daily row) comes with zeros, so the days are contiguous. With
// r.KeyID, the days are that key's (usage_daily_keys; refunds, which are no
// key's, are zero).
func (q *Usage) EachDay(ctx context.Context, accountID string, r Range, fn func(Day) error) error {
	sql := `SELECT d::date, coalesce(u.credits, 0), coalesce(u.listings, 0), coalesce(u.vero_checks, 0), coalesce(u.refunded, 0)
		FROM generate_series($2::date, $3::date, interval '1 day') AS d
		LEFT JOIN usage_daily u ON u.account_id = $1 AND u.day = d::date
		ORDER BY d`
	args := []any{accountID, r.From, r.To}
	if r.KeyID != "" {
		sql = `SELECT d::date, coalesce(u.credits, 0), coalesce(u.listings, 0), coalesce(u.vero_checks, 0), 0::bigint
		FROM generate_series($2::date, $3::date, interval '1 day') AS d
		LEFT JOIN usage_daily_keys u ON u.account_id = $1 AND u.key_id = $4 AND u.day = d::date
		ORDER BY d`
		args = append(args, r.KeyID)
	}
	rows, err := q.db(ctx).Query(ctx, sql, args...)
	if err != nil {
		return fmt.Errorf("load daily usage: %w", err)
	}
	var d Day
	_, err = pgx.ForEachRow(rows, []any{&d.Date, &d.Credits, &d.Listings, &d.VeroChecks, &d.Refunded}, func() error { return fn(d) })
	if err != nil {
		return fmt.Errorf("load daily usage: %w", err)
	}
	return nil
}

// Daily returns the days of r (at most MaxRangeDays), oldest first, zeros
// included.
func (q *Usage) Daily(ctx context.Context, accountID string, r Range) ([]Day, error) {
	days := make([]Day, 0, r.Days())
	err := q.EachDay(ctx, accountID, r, func(d Day) error {
		days = append(days, d)
		return nil
	})
	return days, err
}

// EachTransaction calls fn with every payment of the account made on a day
// of r, oldest first, each marked when it has a receipt. The rows come
// from the server as fn takes them: a long list is never held in memory.
func (q *Usage) EachTransaction(ctx context.Context, accountID string, r Range, fn func(Transaction) error) error {
	rows, err := q.db(ctx).Query(ctx, `SELECT payment_id, transaction_date, description, amount_cents, status, coalesce(invoice_url, '')
		FROM transactions
		WHERE account_id = $1 AND transaction_date >= ($2::date)::timestamp AT TIME ZONE 'UTC'
			AND transaction_date < ($3::date + 1)::timestamp AT TIME ZONE 'UTC'
		ORDER BY transaction_date, payment_id`, accountID, r.From, r.To)
	if err != nil {
		return fmt.Errorf("load transactions: %w", err)
	}
	var t Transaction
	_, err = pgx.ForEachRow(rows, []any{&t.ID, &t.Date, &t.Description, &t.AmountCents, &t.Status, &t.InvoiceURL}, func() error {
		t.Receipt = HasReceipt(t.Status, t.InvoiceURL)
		return fn(t)
	})
	if err != nil {
		return fmt.Errorf("load transactions: %w", err)
	}
	return nil
}
