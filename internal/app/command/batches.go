package command

import (
	"context"
	"log/slog"
	"time"
)

// runInBatches calls handle with limit batch until it answers fewer (or
// fails: logged as what unless ctx ended), then waits for the next tick of
// interval or for wake (nil: ticks only), until ctx ends. The workers that
// drain a queue (expiries, recharges) run so.
func runInBatches(ctx context.Context, interval time.Duration, wake <-chan struct{}, batch int,
	handle func(ctx context.Context, limit int) (int, error), log *slog.Logger, what string) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		for {
			n, err := handle(ctx, batch)
			if err != nil {
				if ctx.Err() == nil {
					log.Error(what, "err", err)
				}
				break
			}
			if n < batch {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-wake:
		}
	}
}
