package a2e

import (
	"context"
	"time"
)

// WithSleep replaces the client's waits between attempts, for tests.
func WithSleep(f func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) { c.sleep = f }
}
