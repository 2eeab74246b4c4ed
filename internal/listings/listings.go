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
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/replica"
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
	version        int64  // in the account's stream, what a cursor holds
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

// KeyPrefix is the prefix the desktop API stores its Idempotency-Keys
// under in the replay table (eventstore's idempotency_keys).
const KeyPrefix = "desktop:"

// ErrNotFound is a listing id that is not one of the account's.
var ErrNotFound = domain.Errorf(domain.CodeNotFound, "No such listing")

// ErrBadCursor is a cursor that no page handed out.
var ErrBadCursor = domain.Errorf(domain.CodeInvalid, "cursor is not a nextCursor this API returned")

// Ledger reads listings from the event store (eventstore.Store.FindIn).
type Ledger struct {
	store *eventstore.Store
	pool  *pgxpool.Pool
	reads *replica.Reads // picks each read's pool; nil: pool
}

// NewLedger reads through store, on its pool.
func NewLedger(store *eventstore.Store) *Ledger { return &Ledger{store: store, pool: store.Pool()} }

// WithReads returns the Ledger reading on the pool reads picks for each
// read (internal/replica: a standby that has replayed the caller's spends,
// else the primary).
func (l *Ledger) WithReads(reads *replica.Reads) *Ledger {
	c := *l
	c.reads = reads
	return &c
}

func (l *Ledger) db(ctx context.Context) eventstore.Querier {
	if l.reads == nil {
		return l.pool
	}
	return l.reads.For(ctx)
}

// listingRequested is the event type a listing is read from.
var listingRequested = domain.ListingRequested{}.EventType()

// Get is the account's listing id, or ErrNotFound (another account's too).
func (l *Ledger) Get(ctx context.Context, accountID, id string) (Listing, error) {
	recs, err := l.store.FindIn(ctx, l.db(ctx), eventstore.Find{
		Stream: domain.StreamID(accountID), Type: listingRequested, DataField: "listingId", DataValue: id,
	})
	if err != nil {
		return Listing{}, err
	}
	found, err := listingsOf(recs)
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
	f := eventstore.Find{Stream: domain.StreamID(accountID), Type: listingRequested, Limit: q.Limit + 1}
	if q.Cursor != "" {
		p, err := decodeCursor(q.Cursor)
		if err != nil {
			return Page{}, err
		}
		f.BeforeVersion = p
	}
	if q.IdempotencyKey != "" {
		// The key is in the event's metadata; listings made before it was
		// written there are found through the replay table while it keeps
		// their key.
		f.IdempotencyKey, f.StoredKey = q.IdempotencyKey, KeyPrefix+q.IdempotencyKey
	}
	recs, err := l.store.FindIn(ctx, l.db(ctx), f)
	if err != nil {
		return Page{}, err
	}
	found, err := listingsOf(recs)
	if err != nil {
		return Page{}, err
	}
	page := Page{Listings: found}
	if len(found) > q.Limit {
		page.Listings = found[:q.Limit]
		page.NextCursor = encodeCursor(page.Listings[q.Limit-1].version)
	}
	return page, nil
}

// listingsOf reads the listings out of ListingRequested records.
func listingsOf(recs []eventstore.Record) ([]Listing, error) {
	out := make([]Listing, 0, len(recs))
	for _, r := range recs {
		var data domain.ListingRequested
		if err := json.Unmarshal(r.Data, &data); err != nil {
			return nil, fmt.Errorf("listing of event %d: %w", r.GlobalPosition, err)
		}
		out = append(out, Listing{
			ID: data.ListingID, ASIN: data.ASIN, AmazonURL: data.AmazonURL, Status: StatusQueued,
			CreatedAt: r.RecordedAt.UTC(), IdempotencyKey: r.Metadata.IdempotencyKey, RequestID: r.Metadata.RequestID,
			version: r.StreamVersion,
		})
	}
	return out, nil
}

// A cursor is the stream version of the last listing of a page (the
// account's own count, not the ledger's), opaque to clients.
const cursorPrefix = "l2."

func encodeCursor(version int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + strconv.FormatInt(version, 10)))
}

// CheckCursor is ErrBadCursor for a cursor no page handed out.
func CheckCursor(c string) error {
	_, err := decodeCursor(c)
	return err
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
