package command

import (
	"context"
	"fmt"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/amazonurl"
	"github.com/a2e-automation/app/internal/sandbox"
)

// The test triggers (issue 34, item 2): a test-mode POST /v1/listings for
// one of these ASINs answers as the live API does in that case, so a
// client's handling of it can be tried on purpose. With a live key they are
// ordinary ASINs.
const (
	TriggerInsufficientCredits = "B0TEST0402" // 402 insufficient_credits, nothing spent
	TriggerRateLimited         = "B0TEST0429" // 429 rate_limited with Retry-After, nothing spent
	TriggerUnavailable         = "B0TEST0503" // 503 service_unavailable with Retry-After, nothing spent
	TriggerCommitUnknown       = "B0TEST0504" // 503 commit_outcome_unknown: the listing is made, as after a real lost commit
)

// TriggerRetryAfter is the Retry-After of the 429 and 503 triggers.
const TriggerRetryAfter = 2 * time.Second

// CreateSandboxListing is a test-mode listing request.
type CreateSandboxListing struct {
	AccountID      string
	APIKeyHash     string
	IdempotencyKey string
	RequestHash    string // as Spend's: the same key with another request is refused
	Product        amazonurl.Product
}

// CreateSandboxListingHandler spends a test credit from the account's
// sandbox, never its balance.
type CreateSandboxListingHandler struct {
	sandbox *sandbox.Store
}

// Handle answers the triggers, else spends a test credit for the listing.
func (h CreateSandboxListingHandler) Handle(ctx context.Context, cmd CreateSandboxListing) (sandbox.Listing, bool, error) {
	switch cmd.Product.ASIN {
	case TriggerInsufficientCredits:
		return sandbox.Listing{}, false, domain.Errorf(domain.CodeInsufficientCredits, "Insufficient credits (test trigger %s)", TriggerInsufficientCredits)
	case TriggerRateLimited:
		return sandbox.Listing{}, false, domain.RateLimited(TriggerRetryAfter, "Rate limit exceeded (test trigger %s)", TriggerRateLimited)
	case TriggerUnavailable:
		return sandbox.Listing{}, false, domain.Unavailable(TriggerRetryAfter, "Service briefly unavailable (test trigger %s)", TriggerUnavailable)
	}
	l, replayed, err := h.sandbox.Spend(ctx, cmd.AccountID, cmd.APIKeyHash, cmd.IdempotencyKey, cmd.RequestHash, cmd.Product.ASIN, cmd.Product.URL())
	if err == nil && !replayed && cmd.Product.ASIN == TriggerCommitUnknown {
		// Made, but answered as a commit whose outcome was lost: the
		// client reads it back (GET /v1/listings?idempotencyKey=), and a
		// retry with the same Idempotency-Key gets the listing.
		return l, false, fmt.Errorf("test trigger %s: %w", TriggerCommitUnknown, eventstore.ErrCommitUnknown)
	}
	return l, replayed, err
}

// ResetSandbox sets an account's test credits back to 1,000.
type ResetSandbox struct{ AccountID string }

// ResetSandboxHandler resets a sandbox.
type ResetSandboxHandler struct {
	sandbox *sandbox.Store
}

// Handle resets cmd's sandbox.
func (h ResetSandboxHandler) Handle(ctx context.Context, cmd ResetSandbox) error {
	return h.sandbox.Reset(ctx, cmd.AccountID)
}
