package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/webhooks"
)

// AddWebhookEndpoint is a seller's new webhook endpoint: the URL that
// receives the events of the types named.
type AddWebhookEndpoint struct {
	AccountID string
	URL       string
	Events    []string
	Metadata  eventstore.Metadata
}

// InvalidField is a refusal about one field of the request.
type InvalidField struct {
	Field string
	Err   *domain.Error
}

func (e *InvalidField) Error() string { return e.Err.Error() }
func (e *InvalidField) Unwrap() error { return e.Err }

// AddWebhookEndpointHandler records the endpoint and keeps its secret.
type AddWebhookEndpointHandler struct {
	accounts *accounts.Repository
	store    *webhooks.Store
	policy   webhooks.Policy
}

// Handle checks the URL against the deployment's policy, then records
// WebhookEndpointAdded (at most domain.MaxWebhookEndpoints, known event
// types) and writes the endpoint's row with a new secret in the same
// transaction. It returns the endpoint, secret included.
func (h AddWebhookEndpointHandler) Handle(ctx context.Context, cmd AddWebhookEndpoint) (webhooks.Endpoint, error) {
	if p := h.policy.CheckURL(cmd.URL); p != "" {
		return webhooks.Endpoint{}, &InvalidField{Field: "url", Err: domain.Errorf(domain.CodeInvalid, "%s", p)}
	}
	if p := domain.CheckWebhookEvents(cmd.Events); p != "" {
		return webhooks.Endpoint{}, &InvalidField{Field: "events", Err: domain.Errorf(domain.CodeInvalid, "%s", p)}
	}
	var out webhooks.Endpoint
	_, err := h.accounts.Change(ctx, cmd.AccountID, eventstore.UpdateOptions{Metadata: cmd.Metadata},
		func(ctx context.Context, w accounts.Work, a *domain.Account, now time.Time) (any, error) {
			id, err := webhooks.NewID()
			if err != nil {
				return nil, err
			}
			secret, err := webhooks.NewSecret()
			if err != nil {
				return nil, err
			}
			if err := a.AddWebhookEndpoint(id, cmd.URL, cmd.Events, now); err != nil {
				return nil, err
			}
			out = webhooks.Endpoint{ID: id, URL: cmd.URL, Events: cmd.Events, Secret: secret, Status: "enabled", CreatedAt: now}
			return nil, w.AddWebhookEndpoint(ctx, h.store, cmd.AccountID, out, now)
		})
	if err == domain.ErrTooManyWebhookEndpoints {
		err = &InvalidField{Field: "url", Err: domain.ErrTooManyWebhookEndpoints}
	}
	return out, err
}
