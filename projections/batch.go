package projections

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// BatchSize is how many events of the log a projector transaction reads
// when it is close to the head; a backlog grows it up to MaxBatchSize (see
// batchSizer).
const BatchSize = 500

// MaxBatchSize bounds the events one live transaction reads while it works
// off a backlog (BenchmarkLiveCatchUp compares sizes).
const MaxBatchSize = 8000

// batchSizer sizes the live batches: BatchSize while the projector keeps up
// (a batch then holds what arrived since the last one, fewer than its
// limit), doubling up to max after each batch that came back full (a
// backlog), and back to BatchSize after one that did not. Far behind, the
// round trips, watermarks and commit are paid per thousands of events;
// close to the head a batch stays short, so a per-stream CatchUp or a
// rebuild's swap waits little for its locks.
type batchSizer struct{ base, max, next int }

func newBatchSizer(base, most int) *batchSizer {
	return &batchSizer{base: base, max: max(base, most), next: base}
}

// size is the limit of the next batch.
func (s *batchSizer) size() int { return s.next }

// afterFull is the limit of the batch after the next if the next comes back
// full (what read would set).
func (s *batchSizer) afterFull() int { return min(2*s.next, s.max) }

// read takes what the last batch read and reports whether the log holds
// more at once (the batch came back full).
func (s *batchSizer) read(n int) (more bool) { return s.grow(n >= s.next) }

// grow takes whether the last batch found more events than it took (a
// backlog) and returns it.
func (s *batchSizer) grow(more bool) bool {
	if more {
		s.next = min(2*s.next, s.max)
		return true
	}
	s.next = s.base
	return false
}

// applierKey is the advisory lock of a projection's batch applier (of a
// checkpoint name: a projection's, or its rebuild's): one worker applies a
// projection's batch at a time; the others skip the round. Its holder is the
// only writer of that name's watermark and checkpoints (a per-stream CatchUp
// writes checkpoints, a rebuild's reset and swap rewrite them; batches,
// live or a rebuild's, move only the watermark): each waits for the lock
// (lockAppliers), so a batch reads checkpoints without row locks
// (readCheckpoints).
// (The swap's rewrite of the live name's rows holds the projection's
// exclusive lock, lockKey, which every holder of the live name's applier
// lock holds shared.)
func applierKey(projection string) int64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte("projection applier:" + projection))
	return int64(h.Sum64())
}

// target is one projection a batch applies: its checkpoint name (its own
// name, or NAME__rebuild) and the tables it writes.
type target struct {
	p  Projection
	cp string
	t  Tables
}

// ApplyBatch applies to the named projections (none: all), in one
// transaction, up to limit events of the log after the lowest of their
// watermarks, read once and decoded once for all of them: each projection
// folds the events past its own watermark that its streams' checkpoints
// have not passed (a per-stream CatchUp may have applied some above the
// watermark) and writes each row it changes once; the watermarks move in
// the same transaction (no checkpoint row does). It returns how
// many events it read: fewer than limit means the projections have caught
// up. A projection another worker is applying is left out of the round
// (when it is every one, ApplyBatch returns 0 without waiting); only a
// rebuild's swap, which holds a projection's lock exclusively, is waited for.
func (r *Projector) ApplyBatch(ctx context.Context, limit int, names ...string) (int, error) {
	n, _, err := r.applyLive(ctx, limit, names, nil)
	return n, err
}

// applyLive is ApplyBatch; it also returns the projections the batch
// applied. With ahead (the live loop's), the batch takes the log's events
// from the read started during the batch before when it starts where that
// read did, and, when it reads a full batch, starts the read of the next
// (readAhead).
func (r *Projector) applyLive(ctx context.Context, limit int, names []string, ahead *aheadReader) (int, []string, error) {
	if len(names) == 0 {
		names = r.order
	}
	tx, err := r.pool.BeginTx(ctx, readCommitted)
	if err != nil {
		return 0, nil, fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	mine, err := r.lockLive(ctx, tx, names)
	if err != nil || len(mine) == 0 {
		return 0, nil, err
	}
	targets := make([]target, len(mine))
	for i, p := range mine {
		targets[i] = target{p: p, cp: p.Name(), t: liveTables(p)}
	}
	n, err := r.applyBatchTx(ctx, tx, targets, limit, ahead)
	if err != nil || n == 0 {
		return 0, nil, err // nothing new: the transaction ends without a commit
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, nil, fmt.Errorf("commit batch of %v: %w", names, err)
	}
	applied := make([]string, len(mine))
	for i, p := range mine {
		applied[i] = p.Name()
	}
	return n, applied, nil
}

// lockLive takes, through tx, the named projections' locks shared (a
// rebuild's swap takes one exclusively: each waits for the other) and tries
// their appliers' locks; it returns the projections whose applier it holds.
func (r *Projector) lockLive(ctx context.Context, tx pgx.Tx, names []string) ([]Projection, error) {
	ps := make([]Projection, 0, len(names))
	shared, appliers := make([]int64, 0, len(names)), make([]int64, 0, len(names))
	for _, name := range names {
		p, err := r.Projection(name)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
		shared, appliers = append(shared, lockKey(name)), append(appliers, applierKey(name))
	}
	slices.Sort(shared)
	// One round trip: the statements run in order, the shared locks first.
	b := &pgx.Batch{}
	b.Queue(`SELECT pg_advisory_xact_lock_shared(k) FROM unnest($1::bigint[]) k`, shared)
	b.Queue(`SELECT array_agg(pg_try_advisory_xact_lock(a) ORDER BY i) FROM unnest($1::bigint[]) WITH ORDINALITY x(a, i)`, appliers)
	res := tx.SendBatch(ctx, b)
	var got []bool
	if _, err := res.Exec(); err != nil {
		_ = res.Close()
		return nil, fmt.Errorf("lock projections %v: %w", names, err)
	}
	if err := res.QueryRow().Scan(&got); err != nil {
		_ = res.Close()
		return nil, fmt.Errorf("lock appliers of %v: %w", names, err)
	}
	if err := res.Close(); err != nil {
		return nil, fmt.Errorf("lock projections %v: %w", names, err)
	}
	mine := ps[:0]
	for i, p := range ps {
		if got[i] {
			mine = append(mine, p)
		}
	}
	return mine, nil
}

// applyBatchTx applies, through tx, up to limit events after the lowest
// watermark of targets to each target's tables; see ApplyBatch. The caller
// holds the applier lock (applierKey) of every target's checkpoint name.
func (r *Projector) applyBatchTx(ctx context.Context, tx pgx.Tx, targets []target, limit int, ahead *aheadReader) (int, error) {
	cps := make([]string, len(targets))
	for i, tg := range targets {
		cps[i] = tg.cp
	}
	slices.Sort(cps)
	marks, wm, err := readWatermarks(ctx, tx, cps)
	if err != nil {
		return 0, err
	}
	recs, evs, more := ahead.take(wm, limit) // read while the batch before was applied
	if recs == nil {
		if recs, err = r.store.ReadAllDataIn(ctx, tx, wm, limit); err != nil || len(recs) == 0 { // the folds read no metadata
			return 0, err
		}
		evs, more = make([]domain.Event, len(recs)), len(recs) == limit // decoded once, for every target that needs the event
	}
	if more {
		ahead.start(ctx, r, recs[len(recs)-1].GlobalPosition) // a backlog: the next batch's events, meanwhile
	}
	above, err := readCheckpoints(ctx, tx, cps, wm)
	if err != nil {
		return 0, err
	}
	for _, tg := range targets {
		mark := marks[tg.cp]
		mine, myEvs := make([]eventstore.Record, 0, len(recs)), make([]domain.Event, 0, len(recs))
		for i, rec := range recs {
			// Applied already: at or below the target's watermark (its
			// watermark can be ahead of the lowest), or by a per-stream
			// CatchUp above it.
			if rec.GlobalPosition <= mark || rec.StreamVersion <= above[checkpointKey{tg.cp, rec.StreamID}] {
				continue
			}
			if evs[i] == nil {
				if evs[i], err = domain.DecodeEvent(rec.Type, rec.SchemaVersion, rec.Data); err != nil {
					return 0, fmt.Errorf("decode event %d: %w", rec.GlobalPosition, err)
				}
			}
			mine, myEvs = append(mine, rec), append(myEvs, evs[i])
		}
		if len(mine) == 0 {
			continue
		}
		if err := tg.p.Apply(ctx, tx, tg.t, mine, myEvs); err != nil {
			return 0, fmt.Errorf("%s: apply a batch of %d events up to position %d: %w", tg.p.Name(), len(mine), mine[len(mine)-1].GlobalPosition, err)
		}
	}
	// Every event up to the batch's last is now applied for every target
	// (here, or before): the watermarks move there, in the rows'
	// transaction. No checkpoint row moves: below the watermark it says
	// nothing the watermark does not (docs/event-store.md, "Projectors:
	// per-stream catch-up").
	if _, err := tx.Exec(ctx, `INSERT INTO projection_watermarks (projection, position) SELECT cp, $2 FROM unnest($1::text[]) cp
		ON CONFLICT (projection) DO UPDATE SET position = greatest(projection_watermarks.position, excluded.position)`,
		cps, recs[len(recs)-1].GlobalPosition); err != nil {
		return 0, fmt.Errorf("move watermarks of %v: %w", cps, err)
	}
	return len(recs), nil
}

// readWatermarks returns the watermark of each of cps (none: 0) and the
// lowest of them.
func readWatermarks(ctx context.Context, tx pgx.Tx, cps []string) (map[string]int64, int64, error) {
	rows, err := tx.Query(ctx, `SELECT cp, coalesce(w.position, 0)
		FROM unnest($1::text[]) cp LEFT JOIN projection_watermarks w ON w.projection = cp`, cps)
	if err != nil {
		return nil, 0, fmt.Errorf("watermarks of %v: %w", cps, err)
	}
	marks := make(map[string]int64, len(cps))
	var cp string
	var pos int64
	lowest := int64(-1)
	if _, err := pgx.ForEachRow(rows, []any{&cp, &pos}, func() error {
		marks[cp] = pos
		if lowest < 0 || pos < lowest {
			lowest = pos
		}
		return nil
	}); err != nil {
		return nil, 0, fmt.Errorf("watermarks of %v: %w", cps, err)
	}
	return marks, max(lowest, 0), nil
}

// checkpointKey is a checkpoint row's key.
type checkpointKey struct{ cp, stream string }

// readCheckpoints returns the versions of the checkpoints of cps past
// position wm: what a per-stream CatchUp applied above the watermark (a
// live batch writes none; the rows at or below a watermark say nothing it
// does not). A range of projection_checkpoints_position, usually empty. It
// takes no row lock: the caller holds the applier lock of every cp
// (applierKey), and only its holder writes that checkpoint's rows (a
// per-stream CatchUp, a rebuild's reset and swap), so they cannot move
// before the caller's commit.
func readCheckpoints(ctx context.Context, tx pgx.Tx, cps []string, wm int64) (map[checkpointKey]int64, error) {
	rows, err := tx.Query(ctx, `SELECT projection, stream_id, version FROM projection_checkpoints
		WHERE projection = ANY($1) AND global_position > $2`, cps, wm)
	if err != nil {
		return nil, fmt.Errorf("checkpoints of %v: %w", cps, err)
	}
	applied := map[checkpointKey]int64{}
	var k checkpointKey
	var v int64
	if _, err := pgx.ForEachRow(rows, []any{&k.cp, &k.stream, &v}, func() error {
		applied[k] = v
		return nil
	}); err != nil {
		return nil, fmt.Errorf("checkpoints of %v: %w", cps, err)
	}
	return applied, nil
}

// lockAppliers waits for the applier locks of cps (applierKey), in a fixed
// order, for the rest of tx: the writers of those checkpoints that wait
// rather than skip (a rebuild's batches and swap, a per-stream CatchUp).
func lockAppliers(ctx context.Context, tx pgx.Tx, cps ...string) error {
	keys := make([]int64, len(cps))
	for i, cp := range cps {
		keys[i] = applierKey(cp)
	}
	slices.Sort(keys)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) k`, keys); err != nil {
		return fmt.Errorf("lock appliers of %v: %w", cps, err)
	}
	return nil
}
