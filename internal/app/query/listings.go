package query

import (
	"context"

	"github.com/a2e-automation/app/internal/listings"
)

// ListingReader reads the desktop client's listing requests back from the
// event store (listings.Ledger, through eventstore.Store.FindIn).
type ListingReader interface {
	Get(ctx context.Context, accountID, id string) (listings.Listing, error)
	List(ctx context.Context, accountID string, q listings.Query) (listings.Page, error)
}

// ListingHandler reads one listing request (GET /v1/listings/{id}).
type ListingHandler struct{ listings ListingReader }

// Handle is accountID's listing id; another account's is listings.ErrNotFound
// like an unknown one.
func (h ListingHandler) Handle(ctx context.Context, accountID, id string) (listings.Listing, error) {
	return h.listings.Get(ctx, accountID, id)
}

// ListingsHandler reads a page of listing requests (GET /v1/listings).
type ListingsHandler struct{ listings ListingReader }

// Handle is a page of accountID's listings, newest first.
func (h ListingsHandler) Handle(ctx context.Context, accountID string, q listings.Query) (listings.Page, error) {
	return h.listings.List(ctx, accountID, q)
}
