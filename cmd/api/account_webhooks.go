package main

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/webhooks"
)

// webhookEndpointRequest is POST /api/webhooks/endpoints.
type webhookEndpointRequest struct {
	URL    string   `json:"url"`
	Events []string `json:"events"`
}

// Valid checks the shape; the URL's rules (https:// in production) are the
// command's, which names the field too.
func (q *webhookEndpointRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if q.URL == "" {
		problems["url"] = "url is required"
	}
	if p := domain.CheckWebhookEvents(q.Events); p != "" {
		problems["events"] = p
	}
	return problems
}

// webhookEndpointResponse is an endpoint with its signing secret.
type webhookEndpointResponse struct {
	ID           string   `json:"id"`
	URL          string   `json:"url"`
	Events       []string `json:"events"`
	Secret       string   `json:"secret"`
	Status       string   `json:"status"`
	FailingSince *string  `json:"failingSince"`
	CreatedAt    string   `json:"createdAt"`
}

func webhookEndpointOf(e webhooks.Endpoint) webhookEndpointResponse {
	return webhookEndpointResponse{ID: e.ID, URL: e.URL, Events: e.Events, Secret: e.Secret, Status: e.Status,
		FailingSince: rfc3339OrNil(e.FailingSince), CreatedAt: e.CreatedAt.UTC().Format(time.RFC3339)}
}

func rfc3339OrNil(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.UTC().Format(time.RFC3339)
	return &s
}

// webhookFieldError is a command's refusal about one field, as a 400
// naming it.
func webhookFieldError(err error) error {
	if f, ok := errors.AsType[*command.InvalidField](err); ok {
		return invalid(map[string]string{f.Field: f.Err.Message})
	}
	return err
}

// handleAddWebhookEndpoint answers POST /api/webhooks/endpoints: 201 with
// the endpoint and its secret.
func handleAddWebhookEndpoint(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[webhookEndpointRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		id := currentSession(r.Context()).AccountID
		e, err := d.App.Commands.AddWebhookEndpoint.Handle(r.Context(), command.AddWebhookEndpoint{
			AccountID: id, URL: req.URL, Events: req.Events, Metadata: metadata(r, "account:"+id)})
		if err != nil {
			writeError(w, r, d.Log, webhookFieldError(err))
			return
		}
		encode(w, http.StatusCreated, webhookEndpointOf(e))
	}
}

// handleWebhookEndpoints answers GET /api/webhooks/endpoints.
func handleWebhookEndpoints(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		list, err := d.App.Queries.WebhookEndpoints.Handle(r.Context(), currentSession(r.Context()).AccountID)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		out := make([]webhookEndpointResponse, 0, len(list))
		for _, e := range list {
			out = append(out, webhookEndpointOf(e))
		}
		encode(w, http.StatusOK, map[string]any{"endpoints": out})
	}
}

// handleRemoveWebhookEndpoint answers DELETE /api/webhooks/endpoints/{id}:
// 204.
func handleRemoveWebhookEndpoint(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := currentSession(r.Context()).AccountID
		if err := d.App.Commands.RemoveWebhookEndpoint.Handle(r.Context(), command.RemoveWebhookEndpoint{
			AccountID: id, EndpointID: chi.URLParam(r, "id"), Metadata: metadata(r, "account:"+id)}); err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
}

// handleRollWebhookSecret answers POST /api/webhooks/endpoints/{id}/roll-secret
// with the new secret; the old one keeps signing for 24 hours.
func handleRollWebhookSecret(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := currentSession(r.Context()).AccountID
		secret, err := d.App.Commands.RollWebhookSecret.Handle(r.Context(), command.RollWebhookSecret{
			AccountID: id, EndpointID: chi.URLParam(r, "id"), Metadata: metadata(r, "account:"+id)})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, map[string]any{"id": chi.URLParam(r, "id"), "secret": secret})
	}
}

// webhookDeliveryResponse is one line of the delivery log.
type webhookDeliveryResponse struct {
	ID            string  `json:"id"`
	EventID       string  `json:"eventId"`
	EventType     string  `json:"eventType"`
	Status        string  `json:"status"`
	Attempts      int     `json:"attempts"`
	LastStatus    *int    `json:"lastStatus"`
	LastError     string  `json:"lastError"`
	LatencyMs     *int    `json:"latencyMs"`
	LastAttemptAt *string `json:"lastAttemptAt"`
	NextRetryAt   *string `json:"nextRetryAt"`
	CreatedAt     string  `json:"createdAt"`
}

// handleWebhookDeliveries answers GET /api/webhooks/endpoints/{id}/deliveries?cursor=.
func handleWebhookDeliveries(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		page, err := d.App.Queries.WebhookDeliveries.Handle(r.Context(), currentSession(r.Context()).AccountID,
			chi.URLParam(r, "id"), r.URL.Query().Get("cursor"))
		if errors.Is(err, webhooks.ErrBadCursor) {
			err = invalid(map[string]string{"cursor": domain.ErrorMessage(err)})
		}
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		out := make([]webhookDeliveryResponse, 0, len(page.Deliveries))
		for _, x := range page.Deliveries {
			out = append(out, webhookDeliveryResponse{ID: x.ID, EventID: x.EventID, EventType: x.EventType, Status: x.Status,
				Attempts: x.Attempts, LastStatus: x.LastStatus, LastError: x.LastError, LatencyMs: x.LatencyMs,
				LastAttemptAt: rfc3339OrNil(x.LastAttemptAt), NextRetryAt: rfc3339OrNil(x.NextRetryAt),
				CreatedAt: x.CreatedAt.UTC().Format(time.RFC3339)})
		}
		var next *string
		if page.Next != "" {
			next = &page.Next
		}
		encode(w, http.StatusOK, map[string]any{"deliveries": out, "nextCursor": next})
	}
}

// handleResendWebhookDelivery answers
// POST /api/webhooks/endpoints/{id}/deliveries/{deliveryId}/resend: 202,
// the worker sends it.
func handleResendWebhookDelivery(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := d.App.Commands.ResendWebhookDelivery.Handle(r.Context(), command.ResendWebhookDelivery{
			AccountID: currentSession(r.Context()).AccountID, EndpointID: chi.URLParam(r, "id"),
			DeliveryID: chi.URLParam(r, "deliveryId")}); err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusAccepted, map[string]any{"queued": true})
	}
}
