// Package projections builds the read tables the dashboard queries from the
// event store: one projector per read model, each idempotent, each with its
// own watermark (and, above it, a CatchUp's checkpoints), each rebuildable
// from zero.
//
// A projector reads the event log itself, from its watermark, in position
// order, in batches (ApplyBatch): it applies each event past its
// watermark that its stream's checkpoint (written only by a per-stream
// CatchUp, above the watermark) has not passed, and moves the watermark in
// the same transaction. Watermill messages only wake it; a redelivered,
// duplicated or lost message changes nothing. CatchUp applies one stream
// the same way (tests), and Rebuild replays the log into fresh tables.
package projections

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// Tables maps a projection's logical table names to the physical ones it
// writes: the live tables, or fresh ones during a rebuild.
type Tables map[string]string

// Q returns the quoted physical name of logical table name.
func (t Tables) Q(name string) string {
	if p, ok := t[name]; ok {
		return pgx.Identifier{p}.Sanitize()
	}
	return pgx.Identifier{name}.Sanitize()
}

// Projection is one read model, applied a batch of events at a time: the
// live projector's batches, a per-stream CatchUp and a rebuild all go
// through Apply, so each read table has one fold.
type Projection interface {
	Name() string
	// Tables lists the logical tables the projection owns.
	Tables() []string
	// Apply folds recs (decoded as evs; in log order, none applied yet) into
	// the rows they change, in memory, with the projection's pure fold
	// function, and writes each changed row once, through tx, with
	// multi-row statements: its cost per batch is a few statements, not
	// one per event.
	Apply(ctx context.Context, tx pgx.Tx, t Tables, recs []eventstore.Record, evs []domain.Event) error
}

// All returns the product's projections.
func All() []Projection {
	return []Projection{Profiles{}, UsageStatistics{}, Transactions{}, UsageDaily{}}
}

// Projector applies events to projections.
type Projector struct {
	pool        *pgxpool.Pool
	store       *eventstore.Store
	projections map[string]Projection
	order       []string
	log         *slog.Logger
}

// NewProjector returns a Projector for ps.
func NewProjector(pool *pgxpool.Pool, store *eventstore.Store, log *slog.Logger, ps ...Projection) *Projector {
	r := &Projector{pool: pool, store: store, projections: map[string]Projection{}, log: log}
	for _, p := range ps {
		r.projections[p.Name()] = p
		r.order = append(r.order, p.Name())
	}
	return r
}

// Names lists the projections in registration order.
func (r *Projector) Names() []string { return append([]string(nil), r.order...) }

// Projection returns the projection called name.
func (r *Projector) Projection(name string) (Projection, error) {
	p, ok := r.projections[name]
	if !ok {
		return nil, fmt.Errorf("unknown projection %q", name)
	}
	return p, nil
}

func liveTables(p Projection) Tables {
	t := Tables{}
	for _, n := range p.Tables() {
		t[n] = n
	}
	return t
}

// lockKey is the advisory lock a rebuild takes exclusively to swap tables and
// live appliers take shared.
func lockKey(projection string) int64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte("projection:" + projection))
	return int64(h.Sum64())
}

// beginLive opens a transaction that applies to projection name's live
// tables: it holds the projection's lock shared, so a rebuild's swap (which
// takes it exclusively) waits for it and it for the swap.
func (r *Projector) beginLive(ctx context.Context, name string) (Projection, pgx.Tx, error) {
	p, err := r.Projection(name)
	if err != nil {
		return nil, nil, err
	}
	tx, err := r.pool.BeginTx(ctx, readCommitted)
	if err != nil {
		return nil, nil, fmt.Errorf("begin: %w", err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock_shared($1)`, lockKey(name)); err != nil {
		_ = tx.Rollback(ctx)
		return nil, nil, fmt.Errorf("lock projection %s: %w", name, err)
	}
	return p, tx, nil
}

// CatchUp applies to projection name every event of stream it has not
// applied yet. It returns how many events it applied.
func (r *Projector) CatchUp(ctx context.Context, name, stream string) (int, error) {
	p, tx, err := r.beginLive(ctx, name)
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	n, err := r.catchUpTx(ctx, tx, p, name, liveTables(p), stream)
	if err != nil {
		return 0, err
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("commit %s/%s: %w", name, stream, err)
	}
	return n, nil
}

// catchUpTx applies the stream's new events under checkpoint name cp.
func (r *Projector) catchUpTx(ctx context.Context, tx pgx.Tx, p Projection, cp string, t Tables, stream string) (int, error) {
	// The applier's lock, waited for: a live batch of the projection reads
	// its checkpoints and moves its watermark without row locks
	// (readCheckpoints).
	if err := lockAppliers(ctx, tx, cp); err != nil {
		return 0, err
	}
	// What is applied of the stream: its checkpoint (a CatchUp's, above
	// the watermark) or every event at or below the watermark, whichever
	// is further (live batches move only the watermark).
	var version int64
	if err := tx.QueryRow(ctx, `SELECT greatest(
			(SELECT version FROM projection_checkpoints WHERE projection = $1 AND stream_id = $2),
			(SELECT max(e.stream_version) FROM events e WHERE e.stream_id = $2
				AND e.global_position <= (SELECT position FROM projection_watermarks WHERE projection = $1)), 0)`,
		cp, stream).Scan(&version); err != nil {
		return 0, fmt.Errorf("checkpoint %s/%s: %w", cp, stream, err)
	}
	recs, err := r.store.ReadStreamIn(ctx, tx, stream, version, 0)
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	evs := make([]domain.Event, len(recs))
	for i, rec := range recs {
		if evs[i], err = domain.DecodeEvent(rec.Type, rec.SchemaVersion, rec.Data); err != nil {
			return 0, fmt.Errorf("decode event %d: %w", rec.GlobalPosition, err)
		}
	}
	if err := p.Apply(ctx, tx, t, recs, evs); err != nil {
		return 0, fmt.Errorf("%s: apply %d events of %s: %w", p.Name(), len(recs), stream, err)
	}
	last := recs[len(recs)-1]
	if _, err := tx.Exec(ctx, `INSERT INTO projection_checkpoints (projection, stream_id, version, global_position)
		VALUES ($1, $2, $3, $4) ON CONFLICT (projection, stream_id) DO UPDATE SET version = excluded.version,
			global_position = excluded.global_position`, cp, stream, last.StreamVersion, last.GlobalPosition); err != nil {
		return 0, fmt.Errorf("move checkpoint %s/%s: %w", cp, stream, err)
	}
	return len(recs), nil
}

// Sweep catches every projection up with the whole log, batch after batch
// from their watermarks (ApplyBatch, sized as the projector's loop sizes
// them); its cost follows the events since the watermarks, not the number of
// accounts. A projection another worker is applying at that moment is left
// to it.
func (r *Projector) Sweep(ctx context.Context) error {
	size := newBatchSizer(BatchSize, MaxBatchSize)
	for {
		n, err := r.ApplyBatch(ctx, size.size())
		if err != nil {
			return err
		}
		if !size.read(n) {
			return nil
		}
	}
}

// Passed reports whether projection name has applied the event at position:
// its watermark is there, or a per-stream CatchUp applied it above.
func (r *Projector) Passed(ctx context.Context, name string, position int64) (bool, error) {
	var ok bool
	err := r.pool.QueryRow(ctx, `SELECT coalesce((SELECT position FROM projection_watermarks WHERE projection = $1), 0) >= $2
		OR EXISTS (SELECT 1 FROM events e
			JOIN projection_checkpoints c ON c.projection = $1 AND c.stream_id = e.stream_id AND c.version >= e.stream_version
			WHERE e.global_position = $2)`, name, position).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("passed %s@%d: %w", name, position, err)
	}
	return ok, nil
}

// ErrWaitTimeout is returned by WaitFor when the projector did not catch up in time.
var ErrWaitTimeout = errors.New("projection did not reach the position in time")

// WaitFor waits, at most timeout, until every named projection has applied
// the event at position, so a user reads their own write. Position 0 returns
// at once.
func (r *Projector) WaitFor(ctx context.Context, position int64, timeout time.Duration, names ...string) error {
	if position == 0 {
		return nil
	}
	if len(names) == 0 {
		names = r.order
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	delay := 5 * time.Millisecond
	for {
		all := true
		for _, n := range names {
			ok, err := r.Passed(ctx, n, position)
			if err != nil {
				if ctx.Err() != nil {
					return ErrWaitTimeout
				}
				return err
			}
			all = all && ok
		}
		if all {
			return nil
		}
		select {
		case <-ctx.Done():
			return ErrWaitTimeout
		case <-time.After(delay):
		}
		delay = min(delay*2, 100*time.Millisecond)
	}
}

// Lag is how far a projection is behind the event store.
type Lag struct {
	Events  int64
	Seconds float64
}

// Lag measures how many events projection name has not applied yet and how
// old the oldest of them is. It advances the watermark first, then counts
// the events after it (an index range) less those a per-stream CatchUp
// applied above it (the streams whose checkpoint is past the watermark: few),
// and dates the lag by the first event after it, where the advance stopped:
// the oldest not applied. Its cost follows the lag as a count of index
// entries, not a checkpoint lookup per event: measured while a backlog is
// worked off (the projector measures it from its first second), the lookup
// per event cost PostgreSQL a quarter of a second per projection per 70,000
// events (docs/benchmarks.md, "Issue 36, ninth session").
func (r *Projector) Lag(ctx context.Context, name string) (Lag, error) {
	wm, err := r.AdvanceWatermark(ctx, name)
	if err != nil {
		return Lag{}, err
	}
	var l Lag
	err = r.pool.QueryRow(ctx, `
		SELECT (SELECT count(*) FROM events WHERE global_position > $2)
			- (SELECT count(*) FROM projection_checkpoints c
				JOIN events e ON e.stream_id = c.stream_id AND e.stream_version <= c.version AND e.global_position > $2
				WHERE c.projection = $1 AND c.global_position > $2),
			coalesce((SELECT extract(epoch FROM now() - e.recorded_at) FROM events e
				WHERE e.global_position > $2 ORDER BY e.global_position LIMIT 1), 0)::float8`, name, wm).
		Scan(&l.Events, &l.Seconds)
	if err != nil {
		return Lag{}, fmt.Errorf("lag of %s: %w", name, err)
	}
	return l, nil
}

// readCommitted is the isolation of every projector transaction, set
// explicitly rather than left to the server's default: reading the log up
// to the event store's horizon needs each statement to see what committed
// before it (a REPEATABLE READ snapshot taken earlier would miss events
// below the horizon).
var readCommitted = pgx.TxOptions{IsoLevel: pgx.ReadCommitted}

// WaitForStreamStart waits, at most timeout, until the named projections
// have applied the first event of stream (its registration): a reader that
// finds no row for a brand-new account waits for it here. A stream with no
// events returns ErrWaitTimeout at once.
func (r *Projector) WaitForStreamStart(ctx context.Context, stream string, timeout time.Duration, names ...string) error {
	first, err := r.store.ReadStream(ctx, stream, 0, 1)
	if err != nil {
		return err
	}
	if len(first) == 0 {
		return ErrWaitTimeout
	}
	return r.WaitFor(ctx, first[0].GlobalPosition, timeout, names...)
}

func accountID(rec eventstore.Record) (string, error) {
	id, ok := domain.AccountIDFromStream(rec.StreamID)
	if !ok {
		return "", fmt.Errorf("stream %q is not an account stream", rec.StreamID)
	}
	return id, nil
}

// ErrUnhandledEvent is a projection's answer to an event type it has no case
// for. Every fold names every event type the codec knows, those that change
// nothing too, so that a new type fails the tests
// (TestEveryFoldHasACaseForEveryEventType) until each fold says what it does.
var ErrUnhandledEvent = errors.New("event type has no case in the projection")

func unhandled(projection string, ev domain.Event) error {
	return fmt.Errorf("%s: %w: %s", projection, ErrUnhandledEvent, ev.EventType())
}
