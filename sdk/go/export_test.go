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

// VerifyWebhookAt is VerifyWebhook at the time now, for the shared vectors.
func VerifyWebhookAt(payload []byte, header, secret string, tolerance time.Duration, now time.Time) (Event, error) {
	return verifyWebhook(payload, header, secret, tolerance, now)
}
