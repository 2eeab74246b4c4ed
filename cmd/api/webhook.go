package main

import (
	"errors"
	"io"
	"net/http"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/payments"
)

// maxWebhookBody bounds a Stripe event; an invoice with many lines runs to
// tens of kilobytes.
const maxWebhookBody = 1 << 20

// handleStripeWebhook verifies a Stripe event's signature and applies it,
// once per event id. A refused signature records nothing and answers 400;
// events the product does not act on are acknowledged, so Stripe stops
// resending them; a failure to record answers 5xx, so Stripe retries.
func handleStripeWebhook(d Deps) http.HandlerFunc {
	type response struct {
		Received bool   `json:"received"`
		Replayed bool   `json:"replayed,omitempty"`
		Ignored  string `json:"ignored,omitempty"`
	}
	return func(w http.ResponseWriter, r *http.Request) {
		payload, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWebhookBody))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				writeError(w, r, d.Log, errStatus(http.StatusRequestEntityTooLarge, "Request body is too large"))
				return
			}
			writeError(w, r, d.Log, err)
			return
		}
		out, err := d.App.Commands.ApplyStripeEvent.Handle(r.Context(), command.ApplyStripeEvent{
			Payload: payload, Signature: r.Header.Get("Stripe-Signature"), Metadata: metadata(r, "stripe"),
		})
		if errors.Is(err, payments.ErrInvalidWebhook) {
			d.Log.WarnContext(r.Context(), "stripe webhook refused", "requestId", requestID(r.Context()), "err", err)
			if domain.ErrorCode(err) == domain.CodeInvalid {
				writeError(w, r, d.Log, err) // signed, but of an API version this server cannot read: say which
				return
			}
			writeError(w, r, d.Log, errStatus(http.StatusBadRequest, "Invalid webhook signature"))
			return
		}
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		if out.Ignored != "" {
			d.Log.InfoContext(r.Context(), "stripe event ignored", "event", out.EventID, "type", out.EventType, "reason", out.Ignored,
				"requestId", requestID(r.Context()))
		}
		encode(w, http.StatusOK, response{Received: true, Replayed: out.Result.Replayed, Ignored: out.Ignored})
	}
}
