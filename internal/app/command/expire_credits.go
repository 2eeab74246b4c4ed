package command

import (
	"context"
	"log/slog"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
)

// ExpireCredits expires the grants whose time has come, for up to Limit
// accounts.
type ExpireCredits struct {
	Limit int
}

// ExpireCreditsHandler records the expiries, one account's transaction at
// a time; Sweep runs it for the API process.
type ExpireCreditsHandler struct {
	accounts *accounts.Repository
}

// Handle appends the expiry of every due grant of up to cmd.Limit accounts
// (accounts.Repository.DueAccounts) and returns how many accounts it
// visited. Each expiry is an event recorded exactly once: a second run
// finds nothing left to expire.
func (h ExpireCreditsHandler) Handle(ctx context.Context, cmd ExpireCredits) (int, error) {
	ids, err := h.accounts.DueAccounts(ctx, cmd.Limit)
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		_, err := h.accounts.Change(ctx, id, eventstore.UpdateOptions{Metadata: eventstore.Metadata{Actor: "system:expiry"}},
			func(_ context.Context, _ accounts.Work, a *domain.Account, now time.Time) (any, error) {
				return nil, a.ExpireDue(now)
			})
		if err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}

// Sweep runs Handle every interval, in batches of 100 accounts until a
// batch is short, until ctx ends (it was accounts.Repository.RunExpirySweeper).
func (h ExpireCreditsHandler) Sweep(ctx context.Context, interval time.Duration, log *slog.Logger) {
	runInBatches(ctx, interval, nil, 100, func(ctx context.Context, limit int) (int, error) {
		return h.Handle(ctx, ExpireCredits{Limit: limit})
	}, log, "expire credits")
}
