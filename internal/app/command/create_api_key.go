package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/apikeys"
)

// CreateAPIKey is a seller's request for another named API key.
type CreateAPIKey struct {
	AccountID string
	Name      string
	Mode      string     // domain.KeyModeLive or domain.KeyModeTest
	ExpiresAt *time.Time // nil: until revoked
	Metadata  eventstore.Metadata
}

// CreatedAPIKey is the new key, shown once in full.
type CreatedAPIKey struct {
	APIKey string
	Key    domain.APIKey
	Result eventstore.Result
}

// CreateAPIKeyHandler makes a key and records APIKeyCreated.
type CreateAPIKeyHandler struct {
	accounts *accounts.Repository
	keys     *apikeys.Keys
}

// Handle records the key in the account's stream and its api_keys row in
// the same transaction; the domain refuses a bad name, mode or expiry and
// an account at its limit of keys.
func (h CreateAPIKeyHandler) Handle(ctx context.Context, cmd CreateAPIKey) (CreatedAPIKey, error) {
	var out CreatedAPIKey
	res, err := h.accounts.Change(ctx, cmd.AccountID, eventstore.UpdateOptions{Metadata: cmd.Metadata},
		func(ctx context.Context, w accounts.Work, a *domain.Account, now time.Time) (any, error) {
			p, material, err := h.keys.GenerateMode(cmd.Mode)
			if err != nil {
				return nil, err
			}
			if err := a.CreateAPIKey(material, cmd.Name, cmd.Mode, cmd.ExpiresAt, now); err != nil {
				return nil, err
			}
			if err := w.ApplyKeyEvents(ctx, cmd.AccountID, a.Changes(), now); err != nil {
				return nil, err
			}
			keys := a.APIKeys()
			out.APIKey, out.Key = p, keys[len(keys)-1]
			return nil, nil
		})
	if err != nil {
		return CreatedAPIKey{}, err
	}
	out.Result = res
	return out, nil
}
