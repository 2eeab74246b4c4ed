package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
)

// RevokeAPIKey stops one of a seller's keys at once.
type RevokeAPIKey struct {
	AccountID string
	KeyID     string
	Metadata  eventstore.Metadata
}

// RevokeAPIKeyHandler records APIKeyRevoked.
type RevokeAPIKeyHandler struct {
	accounts *accounts.Repository
}

// Handle records the revocation and deletes the key's api_keys row in one
// transaction. Every process refuses the key from its next call: a
// metered call's decision judges the key on the locked account, and the
// free reads look it up in api_keys.
func (h RevokeAPIKeyHandler) Handle(ctx context.Context, cmd RevokeAPIKey) (eventstore.Result, error) {
	return h.accounts.Change(ctx, cmd.AccountID, eventstore.UpdateOptions{Metadata: cmd.Metadata},
		func(ctx context.Context, w accounts.Work, a *domain.Account, now time.Time) (any, error) {
			if err := a.RevokeAPIKey(cmd.KeyID, now); err != nil {
				return nil, err
			}
			return nil, w.ApplyKeyEvents(ctx, cmd.AccountID, a.Changes(), now)
		})
}
