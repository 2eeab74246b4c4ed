package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/internal/webhooks"
)

// ResendWebhookDelivery is a seller's request to deliver an event to an
// endpoint again.
type ResendWebhookDelivery struct {
	AccountID  string
	EndpointID string
	DeliveryID string
}

// ResendWebhookDeliveryHandler queues the delivery again.
type ResendWebhookDeliveryHandler struct {
	store  *webhooks.Store
	now    func() time.Time
	queued func()
}

// Handle makes the delivery due now (the same body, signed afresh) and
// nudges the worker; the worker sends it, never this request.
func (h ResendWebhookDeliveryHandler) Handle(ctx context.Context, cmd ResendWebhookDelivery) error {
	if err := h.store.Resend(ctx, cmd.AccountID, cmd.EndpointID, cmd.DeliveryID, h.now()); err != nil {
		return err
	}
	if h.queued != nil {
		h.queued()
	}
	return nil
}
