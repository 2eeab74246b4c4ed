// Package listings reads the desktop client's listing requests back from the
// ledger itself: the ListingRequested events of an account's stream, not a
// read table. A client that lost an answer (a crash, a cut connection, a
// 503 saying the outcome is unknown, a key older than its replay window)
// learns from here whether its request was charged, as soon as it was
// committed and for as long as the ledger keeps it.
package listings

import (
	"context"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
)

// StatusQueued is a listing request's status once paid for: waiting for the
// desktop software to copy the product.
const StatusQueued = "queued"

// Listing is one listing request as the ledger recorded it.
type Listing struct {
	ID             string
	ASIN           string
	AmazonURL      string
	Status         string
	CreatedAt      time.Time
	IdempotencyKey string // the client's Idempotency-Key, "" when it sent none
	RequestID      string // the request that was charged
	position       int64
}

// Page is a page of listings, newest first, and the cursor of the next
// ("" when there is none).
type Page struct {
	Listings   []Listing
	NextCursor string
}

// Query selects listings: at most Limit (1 to MaxLimit), older than Cursor
// (a NextCursor), created with IdempotencyKey when set.
type Query struct {
	Limit          int
	Cursor         string
	IdempotencyKey string
}

// Limits of a page.
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

// ErrNotFound is a listing id that is not one of the account's.
var ErrNotFound = domain.Errorf(domain.CodeNotFound, "No such listing")

// ErrBadCursor is a cursor that no page handed out.
var ErrBadCursor = domain.Errorf(domain.CodeInvalid, "cursor is not a nextCursor this API returned")

// Ledger reads listings from the events table.
type Ledger struct{ pool *pgxpool.Pool }

// NewLedger reads from pool.
func NewLedger(pool *pgxpool.Pool) *Ledger { return &Ledger{pool: pool} }

const columns = `global_position, data->>'listingId', data->>'asin', data->>'amazonUrl', recorded_at,
	coalesce(metadata->>'idempotencyKey', ''), coalesce(metadata->>'requestId', '')`

// Get is the account's listing id, or ErrNotFound (another account's too).
func (l *Ledger) Get(ctx context.Context, accountID, id string) (Listing, error) {
	rows, err := l.pool.Query(ctx, `SELECT `+columns+` FROM events
		WHERE event_type = 'ListingRequested' AND data->>'listingId' = $1 AND stream_id = $2`,
		id, domain.StreamID(accountID))
	if err != nil {
		return Listing{}, err
	}
	found, err := collect(rows)
	if err != nil {
		return Listing{}, err
	}
	if len(found) == 0 {
		return Listing{}, ErrNotFound
	}
	return found[0], nil
}

// List is a page of the account's listings, newest first.
func (l *Ledger) List(ctx context.Context, accountID string, q Query) (Page, error) {
	if q.Limit <= 0 {
		q.Limit = DefaultLimit
	}
	q.Limit = min(q.Limit, MaxLimit)
	before := int64(1<<63 - 1)
	if q.Cursor != "" {
		p, err := decodeCursor(q.Cursor)
		if err != nil {
			return Page{}, err
		}
		before = p
	}
	sql := `SELECT ` + columns + ` FROM events
		WHERE event_type = 'ListingRequested' AND stream_id = $1 AND global_position < $2
		ORDER BY global_position DESC LIMIT $3`
	args := []any{domain.StreamID(accountID), before, q.Limit + 1}
	if q.IdempotencyKey != "" {
		// Its own statement, so the planner always sees the key's index.
		sql = `SELECT ` + columns + ` FROM events
		WHERE event_type = 'ListingRequested' AND stream_id = $1 AND global_position < $2
			AND metadata ? 'idempotencyKey' AND metadata->>'idempotencyKey' = $4
		ORDER BY global_position DESC LIMIT $3`
		args = append(args, q.IdempotencyKey)
	}
	rows, err := l.pool.Query(ctx, sql, args...)
	if err != nil {
		return Page{}, err
	}
	found, err := collect(rows)
	if err != nil {
		return Page{}, err
	}
	page := Page{Listings: found}
	if len(found) > q.Limit {
		page.Listings = found[:q.Limit]
		page.NextCursor = encodeCursor(page.Listings[q.Limit-1].position)
	}
	return page, nil
}

func collect(rows pgx.Rows) ([]Listing, error) {
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Listing, error) {
		var x Listing
		err := row.Scan(&x.position, &x.ID, &x.ASIN, &x.AmazonURL, &x.CreatedAt, &x.IdempotencyKey, &x.RequestID)
		x.Status = StatusQueued
		x.CreatedAt = x.CreatedAt.UTC()
		return x, err
	})
}

// A cursor is the position of the last listing of a page, opaque to clients.
const cursorPrefix = "l1."

func encodeCursor(position int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + strconv.FormatInt(position, 10)))
}

func decodeCursor(c string) (int64, error) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, ErrBadCursor
	}
	n, ok := strings.CutPrefix(string(raw), cursorPrefix)
	if !ok {
		return 0, ErrBadCursor
	}
	p, err := strconv.ParseInt(n, 10, 64)
	if err != nil || p <= 0 {
		return 0, ErrBadCursor
	}
	return p, nil
}
