package a2e

import (
	"context"
	"time"
)

// WithSleep replaces the client's waits between attempts, for tests.
func WithSleep(f func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) { c.sleep = f }
}

// BranchedCodes are the API codes the client acts on, for the test against
// the OpenAPI document.
var BranchedCodes = []string{codeSpendingFrozen, codeIdempotencyKeyReused, codeCommitOutcomeUnknown}
