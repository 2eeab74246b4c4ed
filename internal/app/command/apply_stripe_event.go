package command

import (
	"context"

	"github.com/a2e-automation/app/eventstore"
)

// ApplyStripeEvent is a Stripe webhook delivery: its body and its
// Stripe-Signature header.
type ApplyStripeEvent struct {
	Payload   []byte
	Signature string
	Metadata  eventstore.Metadata
}

// AppliedStripeEvent is what a delivery did: its event's id and type, and
// the outcome (applied, replayed or ignored, and why).
type AppliedStripeEvent struct {
	EventID, EventType string
	Outcome
}

// ApplyStripeEventHandler verifies and applies webhook deliveries.
type ApplyStripeEventHandler struct{ notifications }

// Handle verifies the signature and the API version and reads the event
// (Notifications.ParseNotification; a refusal matches
// payments.ErrInvalidWebhook), then applies what it means for its account
// once per event id (notifications.apply, the simulated provider's path
// too).
func (h ApplyStripeEventHandler) Handle(ctx context.Context, cmd ApplyStripeEvent) (AppliedStripeEvent, error) {
	n, err := h.payments.ParseNotification(cmd.Payload, cmd.Signature)
	if err != nil {
		return AppliedStripeEvent{}, err
	}
	out, err := h.apply(ctx, n, cmd.Metadata)
	if err != nil {
		return AppliedStripeEvent{}, err
	}
	return AppliedStripeEvent{EventID: n.ID, EventType: n.Type, Outcome: out}, nil
}
