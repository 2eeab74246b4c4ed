package projections

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// batchWriter queues a batch's statements, in order, and sends them in one
// round trip (a pipeline in the batch's transaction): the statements and
// their order are what applying the events one by one would run.
type batchWriter struct {
	b     pgx.Batch
	event eventstore.Record   // the event whose statements are being queued
	of    []eventstore.Record // the event of each queued statement
}

// Exec implements Writer by queueing.
func (w *batchWriter) Exec(_ context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	w.b.Queue(sql, args...)
	w.of = append(w.of, w.event)
	return pgconn.CommandTag{}, nil
}

// send runs the queued statements through tx, naming the event of the
// first that fails.
func (w *batchWriter) send(ctx context.Context, tx pgx.Tx, projection string) error {
	if w.b.Len() == 0 {
		return nil
	}
	res := tx.SendBatch(ctx, &w.b)
	for _, rec := range w.of {
		if _, err := res.Exec(); err != nil {
			_ = res.Close()
			return fmt.Errorf("%s: apply %s (position %d): %w", projection, rec.Type, rec.GlobalPosition, err)
		}
	}
	return res.Close()
}

// BatchSize is how many events of the log one projector transaction reads.
const BatchSize = 500

// applierKey is the advisory lock of a projection's batch applier: one
// worker applies a projection's batch at a time; the others skip the round.
func applierKey(projection string) int64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte("projection applier:" + projection))
	return int64(h.Sum64())
}

// ApplyBatch applies to projection name, in one transaction, up to limit
// events of the log after its watermark, in log order, and moves the
// watermark and the streams' checkpoints with them. Events a stream's
// checkpoint has already passed (a per-stream CatchUp) are skipped, so the
// effect stays exactly once. It returns how many events it read: fewer
// than limit means the projection has caught up. When another worker is
// applying the projection it returns 0 without waiting for it (it waits only
// for a rebuild's swap, which holds the projection's lock exclusively).
func (r *Projector) ApplyBatch(ctx context.Context, name string, limit int) (int, error) {
	p, tx, err := r.beginLive(ctx, name)
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var mine bool
	if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1)`, applierKey(name)).Scan(&mine); err != nil {
		return 0, fmt.Errorf("lock applier of %s: %w", name, err)
	}
	if !mine {
		return 0, nil
	}
	n, err := r.applyBatchTx(ctx, tx, p, name, liveTables(p), limit, false)
	if err != nil || n == 0 {
		return 0, err // nothing new: the transaction ends without a commit
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("commit batch of %s: %w", name, err)
	}
	return n, nil
}

// applyBatchTx applies, through tx, up to limit events after checkpoint
// name cp's watermark to tables t; see ApplyBatch. With folded, a Folder
// projection applies the batch set-based (rebuilds); otherwise event by
// event, pipelined.
func (r *Projector) applyBatchTx(ctx context.Context, tx pgx.Tx, p Projection, cp string, t Tables, limit int, folded bool) (int, error) {
	var wm int64
	if err := tx.QueryRow(ctx, `SELECT coalesce((SELECT position FROM projection_watermarks WHERE projection = $1), 0)`, cp).Scan(&wm); err != nil {
		return 0, fmt.Errorf("watermark of %s: %w", cp, err)
	}
	recs, err := r.store.ReadAllIn(ctx, tx, wm, limit)
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	var streams []string
	for _, rec := range recs {
		streams = append(streams, rec.StreamID)
	}
	slices.Sort(streams)
	streams = slices.Compact(streams)
	// The streams' checkpoints, locked in a fixed order: a per-stream
	// CatchUp of one of them waits, and so does this for it.
	if _, err := tx.Exec(ctx, `INSERT INTO projection_checkpoints (projection, stream_id, version, global_position)
		SELECT $1, s, 0, 0 FROM unnest($2::text[]) s ON CONFLICT DO NOTHING`, cp, streams); err != nil {
		return 0, fmt.Errorf("checkpoints of %s: %w", cp, err)
	}
	rows, err := tx.Query(ctx, `SELECT stream_id, version FROM projection_checkpoints
		WHERE projection = $1 AND stream_id = ANY($2) ORDER BY stream_id FOR UPDATE`, cp, streams)
	if err != nil {
		return 0, fmt.Errorf("checkpoints of %s: %w", cp, err)
	}
	applied := map[string]int64{}
	for rows.Next() {
		var s string
		var v int64
		if err := rows.Scan(&s, &v); err != nil {
			rows.Close()
			return 0, err
		}
		applied[s] = v
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("checkpoints of %s: %w", cp, err)
	}
	moved := map[string][2]int64{} // stream -> version, position
	folder, fold := p.(Folder)
	fold = fold && folded
	w := &batchWriter{}
	var foldRecs []eventstore.Record
	var foldEvs []domain.Event
	for _, rec := range recs {
		if rec.StreamVersion <= applied[rec.StreamID] {
			continue
		}
		ev, err := domain.DecodeEvent(rec.Type, rec.SchemaVersion, rec.Data)
		if err != nil {
			return 0, fmt.Errorf("decode event %d: %w", rec.GlobalPosition, err)
		}
		if fold {
			foldRecs, foldEvs = append(foldRecs, rec), append(foldEvs, ev)
		} else {
			w.event = rec
			if err := p.Apply(ctx, w, t, rec, ev); err != nil {
				return 0, fmt.Errorf("%s: apply %s (position %d): %w", p.Name(), rec.Type, rec.GlobalPosition, err)
			}
		}
		applied[rec.StreamID] = rec.StreamVersion
		moved[rec.StreamID] = [2]int64{rec.StreamVersion, rec.GlobalPosition}
	}
	if fold && len(foldRecs) > 0 {
		if err := folder.ApplyFolded(ctx, tx, t, foldRecs, foldEvs); err != nil {
			return 0, fmt.Errorf("%s: apply a batch up to position %d: %w", p.Name(), foldRecs[len(foldRecs)-1].GlobalPosition, err)
		}
	}
	if err := w.send(ctx, tx, p.Name()); err != nil {
		return 0, err
	}
	if len(moved) > 0 {
		ids, versions, positions := make([]string, 0, len(moved)), make([]int64, 0, len(moved)), make([]int64, 0, len(moved))
		for s, m := range moved {
			ids, versions, positions = append(ids, s), append(versions, m[0]), append(positions, m[1])
		}
		if _, err := tx.Exec(ctx, `UPDATE projection_checkpoints c SET version = m.v, global_position = m.p
			FROM unnest($2::text[], $3::bigint[], $4::bigint[]) AS m(s, v, p)
			WHERE c.projection = $1 AND c.stream_id = m.s`, cp, ids, versions, positions); err != nil {
			return 0, fmt.Errorf("move checkpoints of %s: %w", cp, err)
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO projection_watermarks (projection, position) VALUES ($1, $2)
		ON CONFLICT (projection) DO UPDATE SET position = greatest(projection_watermarks.position, excluded.position)`,
		cp, recs[len(recs)-1].GlobalPosition); err != nil {
		return 0, fmt.Errorf("move watermark of %s: %w", cp, err)
	}
	return len(recs), nil
}
