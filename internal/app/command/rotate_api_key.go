package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/apikeys"
)

// RotateAPIKey is a seller's replacement of one of their API keys.
type RotateAPIKey struct {
	AccountID string
	// KeyID is the key replaced; empty: the primary ("Default") key, as
	// POST /api/user/api-key/regenerate asks.
	KeyID string
	// Grace is how long the old key keeps working (0 to
	// domain.MaxRotationGrace; 0: it stops when the rotation commits).
	Grace    time.Duration
	Metadata eventstore.Metadata
}

// RotatedAPIKey is a rotation's answer: the new key, shown once.
type RotatedAPIKey struct {
	APIKey string
	Key    domain.APIKey
	Result eventstore.Result
}

// RotateAPIKeyHandler makes a new key and records it.
type RotateAPIKeyHandler struct {
	accounts *accounts.Repository
	keys     *apikeys.Keys
}

// Handle generates the key material and records APIKeyRotated in the
// account's transaction, which also writes api_keys (auth.ApplyKeyEvents).
// Without a grace the old key stops working when the rotation commits, in
// every process: the metered calls check the key on the locked account.
func (h RotateAPIKeyHandler) Handle(ctx context.Context, cmd RotateAPIKey) (RotatedAPIKey, error) {
	var out RotatedAPIKey
	res, err := h.accounts.Change(ctx, cmd.AccountID, eventstore.UpdateOptions{Metadata: cmd.Metadata},
		func(ctx context.Context, w accounts.Work, a *domain.Account, now time.Time) (any, error) {
			id := cmd.KeyID
			if id == "" {
				id = a.APIKeyID()
			}
			mode := domain.KeyModeLive
			for _, k := range a.APIKeys() {
				if k.ID == id {
					mode = k.Mode
				}
			}
			p, material, err := h.keys.GenerateMode(mode)
			if err != nil {
				return nil, err
			}
			if err := a.RotateKey(id, material, cmd.Grace, now); err != nil {
				return nil, err
			}
			if err := w.ApplyKeyEvents(ctx, cmd.AccountID, a.Changes(), now); err != nil {
				return nil, err
			}
			out.APIKey = p
			for _, k := range a.APIKeys() {
				if k.ID == material.KeyID {
					out.Key = k
				}
			}
			return nil, nil
		})
	if err != nil {
		return RotatedAPIKey{}, err
	}
	out.Result = res
	return out, nil
}
