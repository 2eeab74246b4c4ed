package query

import (
	"context"

	"github.com/a2e-automation/app/internal/sandbox"
)

// SandboxReader reads test mode's sandboxes (sandbox.Store).
type SandboxReader interface {
	Credits(ctx context.Context, accountID string) (int64, error)
	Listing(ctx context.Context, accountID, id string) (sandbox.Listing, error)
	Listings(ctx context.Context, accountID string, limit int, cursor, idempotencyKey string) ([]sandbox.Listing, string, error)
}

// SandboxHandler answers test mode's reads: GET /v1/account's test credits
// and the test listings, which only test keys read back.
type SandboxHandler struct {
	sandbox SandboxReader
}

// Credits is accountID's test credits.
func (h SandboxHandler) Credits(ctx context.Context, accountID string) (int64, error) {
	return h.sandbox.Credits(ctx, accountID)
}

// Listing is accountID's test listing id.
func (h SandboxHandler) Listing(ctx context.Context, accountID, id string) (sandbox.Listing, error) {
	return h.sandbox.Listing(ctx, accountID, id)
}

// Listings is a page of accountID's test listings (newest first, older
// than cursor) and the next page's cursor, or the one idempotencyKey made.
func (h SandboxHandler) Listings(ctx context.Context, accountID string, limit int, cursor, idempotencyKey string) ([]sandbox.Listing, string, error) {
	return h.sandbox.Listings(ctx, accountID, limit, cursor, idempotencyKey)
}
