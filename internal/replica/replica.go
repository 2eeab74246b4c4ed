// Package replica sends reads to a standby (READ_DATABASE_URL) without
// losing read-your-writes: a read goes to the standby once it has replayed
// the primary's WAL as of the read's start, which includes every write the
// seller has been answered for; if it has not within a short bound, the read
// goes to the primary. Without a standby every read goes to the primary.
//
// The cost on the primary is one statement per read
// (pg_current_wal_lsn(), no table touched) instead of the read itself.
package replica

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultWait is how long a read waits for the standby to catch up before it
// goes to the primary; with a synchronous standby replay is usually
// milliseconds behind.
const DefaultWait = 200 * time.Millisecond

// poll is how often the standby's replay position is asked while waiting.
const poll = 5 * time.Millisecond

// Reads picks the pool of each read.
type Reads struct {
	primary, standby *pgxpool.Pool
	wait             time.Duration
	log              *slog.Logger
}

// New returns Reads over primary and standby (nil: every read on primary),
// waiting up to wait (0: DefaultWait) for the standby.
func New(primary, standby *pgxpool.Pool, wait time.Duration, log *slog.Logger) *Reads {
	if wait <= 0 {
		wait = DefaultWait
	}
	return &Reads{primary: primary, standby: standby, wait: wait, log: log}
}

// For is the pool a read starting now runs on: the standby once it has
// replayed everything the primary had committed when For was called, else
// the primary (also when either cannot be asked).
func (r *Reads) For(ctx context.Context) *pgxpool.Pool {
	if r.standby == nil {
		return r.primary
	}
	var lsn string
	if err := r.primary.QueryRow(ctx, `SELECT pg_current_wal_lsn()::text`).Scan(&lsn); err != nil {
		return r.primary // the read fails or succeeds there on its own
	}
	ctx, cancel := context.WithTimeout(ctx, r.wait)
	defer cancel()
	for {
		// NULL when the server is not in recovery: a primary (a failover
		// made the standby one, or prefer-standby found no standby), whose
		// data is current.
		var replayed bool
		err := r.standby.QueryRow(ctx, `SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, true)`, lsn).Scan(&replayed)
		if err == nil && replayed {
			return r.standby
		}
		if err != nil {
			if ctx.Err() == nil && r.log != nil {
				r.log.Warn("standby read: asking the standby failed; reading the primary", "err", err)
			}
			return r.primary
		}
		select {
		case <-ctx.Done():
			return r.primary
		case <-time.After(poll):
		}
	}
}
