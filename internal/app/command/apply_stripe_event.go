package command

import (
	"context"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/payments"
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
	payments.Outcome
}

// ApplyStripeEventHandler verifies and applies webhook deliveries.
type ApplyStripeEventHandler struct {
	payments EventApplier
}

// Handle verifies the signature and the API version
// (payments.Service.ParseWebhook; a refusal matches
// payments.ErrInvalidWebhook), then applies the event once per event id
// (payments.Service.Apply). Apply stays in payments, beside the simulated
// provider, which builds the same events and applies them on the same one
// path (docs/payments.md, "One path for every outcome").
func (h ApplyStripeEventHandler) Handle(ctx context.Context, cmd ApplyStripeEvent) (AppliedStripeEvent, error) {
	ev, err := h.payments.ParseWebhook(cmd.Payload, cmd.Signature)
	if err != nil {
		return AppliedStripeEvent{}, err
	}
	out, err := h.payments.Apply(ctx, ev, cmd.Metadata)
	if err != nil {
		return AppliedStripeEvent{}, err
	}
	return AppliedStripeEvent{EventID: ev.ID, EventType: string(ev.Type), Outcome: out}, nil
}
