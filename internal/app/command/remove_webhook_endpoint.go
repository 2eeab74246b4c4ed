package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/webhooks"
)

// RemoveWebhookEndpoint is a seller's removal of an endpoint.
type RemoveWebhookEndpoint struct {
	AccountID  string
	EndpointID string
	Metadata   eventstore.Metadata
}

// RemoveWebhookEndpointHandler records the removal and deletes the
// endpoint's row and deliveries.
type RemoveWebhookEndpointHandler struct {
	accounts *accounts.Repository
	store    *webhooks.Store
}

// Handle records WebhookEndpointRemoved and deletes the row in the same
// transaction: nothing more is sent to it. An id the account does not have
// is domain.ErrWebhookEndpointNotFound.
func (h RemoveWebhookEndpointHandler) Handle(ctx context.Context, cmd RemoveWebhookEndpoint) error {
	_, err := h.accounts.Change(ctx, cmd.AccountID, eventstore.UpdateOptions{Metadata: cmd.Metadata},
		func(ctx context.Context, w accounts.Work, a *domain.Account, now time.Time) (any, error) {
			if err := a.RemoveWebhookEndpoint(cmd.EndpointID, now); err != nil {
				return nil, err
			}
			return nil, w.RemoveWebhookEndpoint(ctx, h.store, cmd.AccountID, cmd.EndpointID)
		})
	return err
}
