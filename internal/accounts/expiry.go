package accounts

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// ExpireDue appends the expiry of every grant whose time has come, for up to
// limit accounts, and returns how many accounts it visited. Each expiry is an
// event recorded exactly once: a second run finds nothing left to expire.
func (r *Repository) ExpireDue(ctx context.Context, limit int) (int, error) {
	streams, err := r.store.DueStreams(ctx, r.Now(), limit)
	if err != nil {
		return 0, err
	}
	for _, s := range streams {
		id, ok := domain.AccountIDFromStream(s)
		if !ok {
			continue
		}
		_, err := r.Update(ctx, id, eventstore.UpdateOptions{Metadata: eventstore.Metadata{Actor: "system:expiry"}},
			func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
				return nil, a.ExpireDue(now)
			})
		if err != nil {
			return 0, err
		}
	}
	return len(streams), nil
}

// RunExpirySweeper calls ExpireDue every interval until ctx ends.
func (r *Repository) RunExpirySweeper(ctx context.Context, interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		for {
			n, err := r.ExpireDue(ctx, 100)
			if err != nil {
				if ctx.Err() == nil {
					log.Error("expire credits", "err", err)
				}
				break
			}
			if n < 100 {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
