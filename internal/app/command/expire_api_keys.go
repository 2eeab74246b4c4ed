package command

import (
	"context"
	"log/slog"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/auth"
)

// ExpireAPIKeys records the end of the keys whose expiry or rotation's
// grace has come, for up to Limit accounts.
type ExpireAPIKeys struct {
	Limit int
}

// ExpireAPIKeysHandler records APIKeyExpired; Sweep runs it for the API
// process. A key stops working at its time whether or not the sweeper has
// run (the decision and the api_keys lookup both compare with the clock):
// the event records it for history and removes the row.
type ExpireAPIKeysHandler struct {
	accounts *accounts.Repository
	auth     *auth.Store
}

// Handle visits up to cmd.Limit accounts with a due key and returns how
// many it visited; a second run finds nothing left.
func (h ExpireAPIKeysHandler) Handle(ctx context.Context, cmd ExpireAPIKeys) (int, error) {
	ids, err := h.auth.AccountsWithDueKeys(ctx, cmd.Limit)
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		_, err := h.accounts.Change(ctx, id, eventstore.UpdateOptions{Metadata: eventstore.Metadata{Actor: "system:expiry"}},
			func(ctx context.Context, w accounts.Work, a *domain.Account, now time.Time) (any, error) {
				if err := a.ExpireAPIKeys(now); err != nil {
					return nil, err
				}
				return nil, w.ApplyKeyEvents(ctx, id, a.Changes(), now)
			})
		if err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}

// Sweep runs Handle every interval until ctx ends.
func (h ExpireAPIKeysHandler) Sweep(ctx context.Context, interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := h.Handle(ctx, ExpireAPIKeys{Limit: 100}); err != nil && ctx.Err() == nil {
			log.Error("expire api keys", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
