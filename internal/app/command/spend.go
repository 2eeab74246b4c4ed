package command

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/auth"
)

// Spend is what every metered command carries: the account it charges
// and the idempotency key its answer is kept with.
type Spend struct {
	AccountID string
	// APIKeyHash is the hash of the API key the call came with; the
	// command refuses it unless it is the account's current key (the
	// caller was admitted by a remembered key, auth.KeyCache).
	APIKeyHash     string
	IdempotencyKey string // empty: none
	RequestHash    string // a hash of the request: the same key with another request is refused
	Metadata       eventstore.Metadata
}

// Metered is a metered command's answer as the JSON kept with its
// idempotency key: a retry with the same key gets Body back byte for byte,
// with Replayed set, and is not charged again.
type Metered struct {
	Body     []byte
	Replayed bool
	// OriginalRequestID is, on a replay, the request that was charged.
	OriginalRequestID string
}

// spender runs metered commands: accounts' group commit, and the cache of
// API keys whose stale entries it forgets.
type spender struct {
	accounts *accounts.Repository
	keys     *auth.KeyCache // nil: keys are not remembered
	log      *slog.Logger
}

// spend runs cmd, a command that charges a credit and returns its answer,
// through accounts.Repository.Spend (the group commit when there is one),
// after checking, on the locked account, that the call's API key is its
// current one. A failed command keeps nothing, so its retry runs afresh; a
// spend refused by a limit not yet noted in its period has the limit's
// reach recorded afterwards (noteSpendLimitReached).
func (sp spender) spend(ctx context.Context, s Spend, cmd accounts.SpendCommand) (Metered, error) {
	res, err := sp.accounts.Spend(ctx, s.AccountID, eventstore.UpdateOptions{
		Metadata: s.Metadata, IdempotencyKey: s.IdempotencyKey, RequestHash: s.RequestHash,
	}, func(ctx context.Context, q eventstore.Querier, a *domain.Account, now time.Time) (any, error) {
		if err := a.RequireAPIKey(s.APIKeyHash, now); err != nil {
			return nil, err
		}
		return cmd(ctx, q, a, now)
	})
	if err == nil && res.Replayed {
		// A replay is answered before any decision: check the key here.
		// Only a retry pays this read.
		err = sp.requireKey(ctx, s)
	}
	if errors.Is(err, domain.ErrAPIKeyNotCurrent) && sp.keys != nil {
		sp.keys.Forget(s.APIKeyHash)
	}
	sp.noteSpendLimitReached(ctx, s, err)
	if err != nil {
		return Metered{}, err
	}
	if sp.keys != nil {
		sp.keys.Touch(s.APIKeyHash) // the key's "last used", written later in bulk
	}
	m := Metered{Body: res.Result, Replayed: res.Replayed}
	if res.Replayed && res.FirstPosition > 0 {
		// The answer was already decided, so a failed read costs the
		// header, not the answer.
		if md, err := sp.accounts.Store().MetadataAt(ctx, res.FirstPosition); err == nil {
			m.OriginalRequestID = md.RequestID
		}
	}
	return m, nil
}

// requireKey checks s's key against the account's current snapshot.
func (sp spender) requireKey(ctx context.Context, s Spend) error {
	a, err := sp.accounts.FromSnapshot(ctx, s.AccountID)
	if err != nil {
		return err
	}
	return a.RequireAPIKey(s.APIKeyHash, sp.accounts.Now())
}
