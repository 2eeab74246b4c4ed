package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/apikeys"
)

// RotateAPIKey is a seller's replacement of their API key.
type RotateAPIKey struct {
	AccountID string
	Metadata  eventstore.Metadata
}

// RotatedAPIKey is a rotation's answer: the new key, shown once.
type RotatedAPIKey struct {
	APIKey string
	Result eventstore.Result
}

// RotateAPIKeyHandler makes a new key and records it.
type RotateAPIKeyHandler struct {
	accounts *accounts.Repository
	keys     *apikeys.Keys
}

// Handle generates the key material and records APIKeyRotated in the
// account's transaction, which also replaces the key in api_keys
// (auth.ReplaceAPIKey): the old key stops working when the rotation
// commits, in every process (the metered calls check the key on the locked
// account).
func (h RotateAPIKeyHandler) Handle(ctx context.Context, cmd RotateAPIKey) (RotatedAPIKey, error) {
	var plain string
	res, err := h.accounts.Change(ctx, cmd.AccountID, eventstore.UpdateOptions{Metadata: cmd.Metadata},
		func(ctx context.Context, w accounts.Work, a *domain.Account, now time.Time) (any, error) {
			p, material, err := h.keys.Generate()
			if err != nil {
				return nil, err
			}
			if err := a.RotateAPIKey(material, now); err != nil {
				return nil, err
			}
			if err := w.ReplaceAPIKey(ctx, cmd.AccountID, material.Hash, material.KeyID, now); err != nil {
				return nil, err
			}
			plain = p
			return nil, nil
		})
	if err != nil {
		return RotatedAPIKey{}, err
	}
	return RotatedAPIKey{APIKey: plain, Result: res}, nil
}
