package command

import (
	"context"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
)

// Spend is what every metered command carries: the account it charges
// and the idempotency key its answer is kept with.
type Spend struct {
	AccountID      string
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

// spend runs cmd, a command that charges a credit and returns its answer,
// through accounts.Repository.Spend (the group commit when there is one).
// A failed command keeps nothing, so its retry runs afresh.
func spend(ctx context.Context, repo *accounts.Repository, s Spend, cmd accounts.Command) (Metered, error) {
	res, err := repo.Spend(ctx, s.AccountID, eventstore.UpdateOptions{
		Metadata: s.Metadata, IdempotencyKey: s.IdempotencyKey, RequestHash: s.RequestHash,
	}, cmd)
	if err != nil {
		return Metered{}, err
	}
	m := Metered{Body: res.Result, Replayed: res.Replayed}
	if res.Replayed && res.FirstPosition > 0 {
		// Only a retry pays this read. The answer was already decided, so a
		// failed read costs the header, not the answer.
		if md, err := repo.Store().MetadataAt(ctx, res.FirstPosition); err == nil {
			m.OriginalRequestID = md.RequestID
		}
	}
	return m, nil
}
