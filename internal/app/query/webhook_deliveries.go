package query

import (
	"context"

	"github.com/a2e-automation/app/internal/webhooks"
)

// WebhookDeliveriesReader pages through an endpoint's delivery log
// (webhooks.Store).
type WebhookDeliveriesReader interface {
	Deliveries(ctx context.Context, accountID, endpointID, cursor string) ([]webhooks.Delivery, string, error)
}

// WebhookDeliveries is a page of the delivery log and the next page's
// cursor ("" at the end).
type WebhookDeliveries struct {
	Deliveries []webhooks.Delivery
	Next       string
}

// WebhookDeliveriesHandler answers an endpoint's delivery log.
type WebhookDeliveriesHandler struct {
	deliveries WebhookDeliveriesReader
}

// Handle returns the page after cursor of endpointID's deliveries, newest
// event first; an endpoint not of accountID is not found.
func (h WebhookDeliveriesHandler) Handle(ctx context.Context, accountID, endpointID, cursor string) (WebhookDeliveries, error) {
	d, next, err := h.deliveries.Deliveries(ctx, accountID, endpointID, cursor)
	return WebhookDeliveries{Deliveries: d, Next: next}, err
}
