package projections

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// watermarkBatch bounds the events one advance looks at.
const watermarkBatch = 10_000

// Watermark is the position at or below which projection name has applied
// every event.
func (r *Projector) Watermark(ctx context.Context, name string) (int64, error) {
	var pos int64
	err := r.pool.QueryRow(ctx, `SELECT position FROM projection_watermarks WHERE projection = $1`, name).Scan(&pos)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("watermark of %s: %w", name, err)
	}
	return pos, nil
}

// AdvanceWatermark moves projection name's watermark over the events after
// it, in log order, that its checkpoints show applied, stopping at the
// first that is not; it returns the new watermark. Its cost follows the
// events since the watermark (read watermarkBatch at a time), not the
// number of streams. It reads only up to the event store's horizon
// (docs/event-store.md), so an event can never appear later below the
// watermark.
func (r *Projector) AdvanceWatermark(ctx context.Context, name string) (int64, error) {
	wm, err := r.Watermark(ctx, name)
	if err != nil {
		return 0, err
	}
	for {
		// Only below the event store's horizon is the log final: a late
		// commit can still appear above it.
		horizon, err := r.store.Horizon(ctx, r.pool)
		if err != nil {
			return wm, err
		}
		var next int64
		var scanned int
		err = r.pool.QueryRow(ctx, `
			WITH after AS (
				SELECT e.global_position, e.stream_version, coalesce(
					(SELECT c.version FROM projection_checkpoints c WHERE c.projection = $1 AND c.stream_id = e.stream_id), 0) AS applied
				FROM events e
				WHERE e.global_position > $2 AND e.global_position <= $4 ORDER BY e.global_position LIMIT $3),
			first_gap AS (SELECT min(global_position) AS p FROM after WHERE applied < stream_version)
			SELECT coalesce((SELECT max(global_position) FROM after WHERE global_position < coalesce((SELECT p FROM first_gap), 'Infinity'::numeric)), $2),
			       (SELECT count(*) FROM after)`, name, wm, watermarkBatch, horizon).Scan(&next, &scanned)
		if err != nil {
			return wm, fmt.Errorf("advance watermark of %s: %w", name, err)
		}
		if next > wm {
			if _, err := r.pool.Exec(ctx, `INSERT INTO projection_watermarks (projection, position) VALUES ($1, $2)
				ON CONFLICT (projection) DO UPDATE SET position = greatest(projection_watermarks.position, excluded.position)`, name, next); err != nil {
				return wm, fmt.Errorf("store watermark of %s: %w", name, err)
			}
		}
		if next == wm || scanned < watermarkBatch {
			return next, nil
		}
		wm = next
	}
}
