package a2e

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/a2e-automation/app/sdk/go/internal/api"
)

// Listing is a request to copy an Amazon product to eBay.
type Listing struct {
	ID        string `json:"id"`
	ASIN      string `json:"asin"`
	AmazonURL string `json:"amazonUrl"` // canonical: https://www.amazon.<marketplace>/dp/<ASIN>
	Status    string `json:"status"`    // "queued" when created
	// CreditsRemaining is the balance just after the charge, on the listing
	// Create returns from the server's answer; nil on one read back.
	CreditsRemaining *int64    `json:"creditsRemaining,omitempty"`
	CreatedAt        time.Time `json:"createdAt"`
	// IdempotencyKey is the key that created the listing: the one Create
	// sent, or the one the ledger keeps on a listing read back ("" if none).
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
	// RequestID is the id of the request that created (and charged) the
	// listing, on a listing read back.
	RequestID string `json:"requestId,omitempty"`
	// Mode is "test" for a listing made in test mode (the sandbox), "" for
	// a live one.
	Mode string `json:"mode,omitempty"`
	// RateLimit is the key's rate limit after the call that answered this
	// listing (nil on a listing of a page, and when not told).
	RateLimit *RateLimit `json:"-"`
}

// CreateListingParams is what ListingsService.Create sends.
type CreateListingParams struct {
	// AmazonURL is the Amazon product's address (required).
	AmazonURL string
	// IdempotencyKey names this operation, at most 255 characters; empty:
	// Create makes a random one. Reuse it to resume the same operation.
	IdempotencyKey string
}

// ListListingsParams selects a page of ListingsService.List; every field
// is optional.
type ListListingsParams struct {
	Limit          int    // 1 to 100; 0: the server's default (20)
	Cursor         string // a page's NextCursor, for the page after it
	IdempotencyKey string // only the listing that this key created
}

// ListingPage is a page of listings, newest first.
type ListingPage struct {
	Data []Listing `json:"data"`
	// NextCursor is the cursor of the next page; "" on the last one.
	NextCursor string `json:"nextCursor"`
	// RateLimit is the key's rate limit after this call; nil if not told.
	RateLimit *RateLimit `json:"-"`
}

// ListingsService is the client's listing calls (Client.Listings).
type ListingsService struct{ c *Client }

// Create requests a listing, charging 1 credit (POST /v1/listings). Every
// attempt sends the same Idempotency-Key and the same body, so retries are
// never charged twice. When the server cannot tell whether the charge
// happened (commit_outcome_unknown) and the retries run out, Create waits
// once more as for a retry and reads the listing back by its key: found,
// it is the result; otherwise the error has OutcomeUnknown set. The result
// and every error carry the IdempotencyKey used.
func (s *ListingsService) Create(ctx context.Context, p CreateListingParams) (*Listing, error) {
	key := p.IdempotencyKey
	if key == "" {
		key = newIdempotencyKey()
	}
	body, _ := json.Marshal(api.ListingRequest{AmazonURL: p.AmazonURL}) // a string field: it cannot fail
	var created api.Listing
	limit, err := s.c.send(ctx, request{method: http.MethodPost, path: "/v1/listings", body: body, idempotencyKey: key},
		&created, s.c.maxRetries)
	var e *Error
	if errors.As(err, &e) && e.OutcomeUnknown && s.c.wait(ctx, 0, e) {
		// The wait, as before a first retry, lets a commit still under way
		// land before the read-back, which is one request.
		if found, ferr := s.find(ctx, key, 0); ferr == nil && found != nil {
			return found, nil
		}
	}
	if err != nil {
		return nil, err
	}
	l := listingOf(created)
	l.IdempotencyKey = key
	l.RateLimit = limit
	return &l, nil
}

// Retrieve reads one of the account's listings back by its id (free); an
// unknown id is ErrNotFound.
func (s *ListingsService) Retrieve(ctx context.Context, id string) (*Listing, error) {
	var record api.ListingRecord
	limit, err := s.c.send(ctx, request{method: http.MethodGet, path: "/v1/listings/" + url.PathEscape(id)},
		&record, s.c.maxRetries)
	if err != nil {
		return nil, err
	}
	l := listingOfRecord(record)
	l.RateLimit = limit
	return &l, nil
}

// List answers a page of the account's listings, newest first (free).
func (s *ListingsService) List(ctx context.Context, p ListListingsParams) (*ListingPage, error) {
	return s.list(ctx, p, s.c.maxRetries)
}

// FindByIdempotencyKey answers the listing that key created, or nil when
// it created none (free). It reads the ledger, so it works after the
// server's 24-hour replay window: a desktop app resolves a pending
// operation with it.
func (s *ListingsService) FindByIdempotencyKey(ctx context.Context, key string) (*Listing, error) {
	return s.find(ctx, key, s.c.maxRetries)
}

func (s *ListingsService) find(ctx context.Context, key string, retries int) (*Listing, error) {
	page, err := s.list(ctx, ListListingsParams{IdempotencyKey: key}, retries)
	if err != nil || len(page.Data) == 0 {
		return nil, err
	}
	l := page.Data[0]
	l.RateLimit = page.RateLimit
	return &l, nil
}

func (s *ListingsService) list(ctx context.Context, p ListListingsParams, retries int) (*ListingPage, error) {
	q := url.Values{}
	if p.Limit != 0 {
		q.Set("limit", strconv.Itoa(p.Limit))
	}
	if p.Cursor != "" {
		q.Set("cursor", p.Cursor)
	}
	if p.IdempotencyKey != "" {
		q.Set("idempotencyKey", p.IdempotencyKey)
	}
	var answer api.ListingPage
	limit, err := s.c.send(ctx, request{method: http.MethodGet, path: "/v1/listings", query: q}, &answer, retries)
	if err != nil {
		return nil, err
	}
	page := &ListingPage{Data: make([]Listing, len(answer.Data)), RateLimit: limit}
	for i, record := range answer.Data {
		page.Data[i] = listingOfRecord(record)
	}
	if answer.NextCursor != nil {
		page.NextCursor = *answer.NextCursor
	}
	return page, nil
}

// listingOf is the listing of a create's answer.
func listingOf(l api.Listing) Listing {
	credits := l.CreditsRemaining
	return Listing{ID: l.ID, ASIN: l.ASIN, AmazonURL: l.AmazonURL, Status: string(l.Status),
		CreditsRemaining: &credits, CreatedAt: l.CreatedAt, Mode: modeOf(l.Mode)}
}

// listingOfRecord is a listing read back (alone or in a page).
func listingOfRecord(r api.ListingRecord) Listing {
	l := Listing{ID: r.ID, ASIN: r.ASIN, AmazonURL: r.AmazonURL, Status: string(r.Status), CreatedAt: r.CreatedAt,
		Mode: modeOf(r.Mode)}
	if r.IdempotencyKey != nil {
		l.IdempotencyKey = *r.IdempotencyKey
	}
	if r.RequestID != nil {
		l.RequestID = *r.RequestID
	}
	return l
}
