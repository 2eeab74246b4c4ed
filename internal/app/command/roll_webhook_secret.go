package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/webhooks"
)

// RollWebhookSecret is a seller's replacement of an endpoint's signing
// secret.
type RollWebhookSecret struct {
	AccountID  string
	EndpointID string
	Metadata   eventstore.Metadata
}

// RollWebhookSecretHandler records the roll and keeps the new secret.
type RollWebhookSecretHandler struct {
	accounts *accounts.Repository
	store    *webhooks.Store
}

// Handle records WebhookSecretRolled and stores a new secret in the same
// transaction; the old one signs too (a second v1) for
// webhooks.RolledSecretValidity. It returns the new secret.
func (h RollWebhookSecretHandler) Handle(ctx context.Context, cmd RollWebhookSecret) (string, error) {
	var secret string
	_, err := h.accounts.Change(ctx, cmd.AccountID, eventstore.UpdateOptions{Metadata: cmd.Metadata},
		func(ctx context.Context, w accounts.Work, a *domain.Account, now time.Time) (any, error) {
			if err := a.RollWebhookSecret(cmd.EndpointID, now); err != nil {
				return nil, err
			}
			s, err := webhooks.NewSecret()
			if err != nil {
				return nil, err
			}
			secret = s
			return nil, w.RollWebhookSecret(ctx, h.store, cmd.AccountID, cmd.EndpointID, s, now)
		})
	return secret, err
}
