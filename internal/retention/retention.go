// Package retention prunes what would otherwise grow without end: desktop
// idempotency keys past their time, Stripe event keys past Stripe's
// redelivery window, outbox rows every consumer group has passed, handled
// password reset requests after a day, final mails after a week and final
// webhook deliveries after 30 days. Every
// API process runs a pruner; a PostgreSQL session advisory lock lets one
// prune at a time, and each exports what it removed.
package retention

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/listings"
	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/webhooks"
)

// StripeKeyRetention keeps Stripe event ids well past Stripe's three days
// of webhook redelivery.
const StripeKeyRetention = 30 * 24 * time.Hour

// batch bounds one DELETE, so no statement holds many rows locked.
const batch = 5000

// lockKey is the advisory lock of the pruning pass.
const lockKey = 7_301_116 // "retention"

// Options configure a Pruner.
type Options struct {
	// IdempotencyKeyTTL is how long a desktop Idempotency-Key is kept
	// (IDEMPOTENCY_KEY_TTL).
	IdempotencyKeyTTL time.Duration
	// ConsumerGroups are the outbox's consumer groups that must all have
	// passed a row before it goes.
	ConsumerGroups []string
}

// Pruner removes old rows.
type Pruner struct {
	pool    *pgxpool.Pool
	log     *slog.Logger
	opts    Options
	removed *prometheus.CounterVec
	Now     func() time.Time
}

// New returns a pruner on pool.
func New(pool *pgxpool.Pool, log *slog.Logger, opts Options) *Pruner {
	return &Pruner{pool: pool, log: log, opts: opts, Now: time.Now, removed: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "retention_pruned_rows_total",
		Help: "Rows the retention pruner removed, by what they were.",
	}, []string{"table"})}
}

// Removed is the counter of removed rows, by table.
func (p *Pruner) Removed() *prometheus.CounterVec { return p.removed }

// Register adds the pruner's counter to reg.
func (p *Pruner) Register(reg prometheus.Registerer) error { return reg.Register(p.removed) }

// Run prunes every interval until ctx ends.
func (p *Pruner) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := p.PruneOnce(ctx); err != nil && ctx.Err() == nil {
			p.log.WarnContext(ctx, "retention", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// PruneOnce runs one pass, unless another process holds the lock (then it
// returns false), and says whether it ran.
func (p *Pruner) PruneOnce(ctx context.Context) (bool, error) {
	conn, err := p.pool.Acquire(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Release()
	var got bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, lockKey).Scan(&got); err != nil || !got {
		return false, err
	}
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, lockKey) }()
	now := p.Now()
	steps := []struct {
		table string
		prune func() (int64, error)
	}{
		{"idempotency_keys_desktop", func() (int64, error) {
			return eventstore.PruneIdempotencyKeys(ctx, conn, listings.KeyPrefix, now.Add(-p.opts.IdempotencyKeyTTL), batch)
		}},
		{"idempotency_keys_staff", func() (int64, error) {
			return eventstore.PruneIdempotencyKeys(ctx, conn, command.AdjustmentKeyPrefix, now.Add(-p.opts.IdempotencyKeyTTL), batch)
		}},
		{"idempotency_keys_stripe", func() (int64, error) {
			return eventstore.PruneIdempotencyKeys(ctx, conn, "stripe:", now.Add(-StripeKeyRetention), batch)
		}},
		{"outbox_delivered", func() (int64, error) {
			return eventstore.PruneDelivered(ctx, conn, p.opts.ConsumerGroups, batch)
		}},
		{"password_reset_requests", func() (int64, error) {
			return auth.PruneResetRequests(ctx, conn, now.Add(-auth.ResetRequestRetention), batch)
		}},
		{"mail_outbox_final", func() (int64, error) {
			return mail.PruneFinal(ctx, conn, now.Add(-mail.FinalRetention), batch)
		}},
		{"webhook_deliveries_final", func() (int64, error) {
			return webhooks.PruneFinal(ctx, conn, now.Add(-webhooks.FinalRetention), batch)
		}},
	}
	var errs []error
	for _, s := range steps {
		for {
			n, err := s.prune()
			if err != nil { // the next step still runs
				errs = append(errs, fmt.Errorf("%s: %w", s.table, err))
				break
			}
			p.removed.WithLabelValues(s.table).Add(float64(n))
			if n > 0 {
				p.log.InfoContext(ctx, "pruned", "table", s.table, "rows", n)
			}
			if n < batch {
				break
			}
		}
	}
	return true, errors.Join(errs...)
}
