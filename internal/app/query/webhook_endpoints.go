package query

import (
	"context"

	"github.com/a2e-automation/app/internal/webhooks"
)

// WebhookEndpointsReader lists an account's webhook endpoints
// (webhooks.Store).
type WebhookEndpointsReader interface {
	List(ctx context.Context, accountID string) ([]webhooks.Endpoint, error)
}

// WebhookEndpointsHandler answers the seller's list of endpoints, each with
// its signing secret (the dashboard shows it on demand).
type WebhookEndpointsHandler struct {
	endpoints WebhookEndpointsReader
}

// Handle returns accountID's endpoints, oldest first.
func (h WebhookEndpointsHandler) Handle(ctx context.Context, accountID string) ([]webhooks.Endpoint, error) {
	return h.endpoints.List(ctx, accountID)
}
