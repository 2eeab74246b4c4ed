package eventstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// ReadStream returns up to limit events of stream after afterVersion, in
// order (limit <= 0: all).
func (s *Store) ReadStream(ctx context.Context, stream string, afterVersion int64, limit int) ([]Record, error) {
	return s.readStream(ctx, s.pool, stream, afterVersion, limit)
}

// Querier is a pool, connection or transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// ReadStreamIn is ReadStream through q, for a reader that keeps its own
// transaction (projections).
func (s *Store) ReadStreamIn(ctx context.Context, q Querier, stream string, afterVersion int64, limit int) ([]Record, error) {
	return s.readStream(ctx, q, stream, afterVersion, limit)
}

func (s *Store) readStream(ctx context.Context, q Querier, stream string, afterVersion int64, limit int) ([]Record, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := q.Query(ctx, `SELECT `+recordColumns+` FROM events
		WHERE stream_id = $1 AND stream_version > $2 ORDER BY stream_version
		LIMIT CASE WHEN $3::int < 0 THEN NULL ELSE $3::int END`, stream, afterVersion, limit)
	if err != nil {
		return nil, fmt.Errorf("read stream %s: %w", stream, err)
	}
	return s.scanRecords(rows)
}

// ReadAll returns up to limit events with a global position above
// afterPosition and at or below the horizon, in position order. No event can
// appear later at or below the horizon, so a reader that remembers the last
// position it saw never skips one.
func (s *Store) ReadAll(ctx context.Context, afterPosition int64, limit int) ([]Record, error) {
	return s.ReadAllIn(ctx, s.pool, afterPosition, limit)
}

// ReadAllIn is ReadAll through q: a pool, or a READ COMMITTED transaction
// (each statement sees what committed before it; a REPEATABLE READ
// snapshot taken before the horizon could miss events below it).
func (s *Store) ReadAllIn(ctx context.Context, q Querier, afterPosition int64, limit int) ([]Record, error) {
	return s.readAllIn(ctx, q, afterPosition, limit, recordColumns)
}

// ReadAllDataIn is ReadAllIn without the events' metadata (each Record's
// Metadata is left empty), for readers that fold the events' data alone:
// the projections. The column is neither sent nor decoded.
func (s *Store) ReadAllDataIn(ctx context.Context, q Querier, afterPosition int64, limit int) ([]Record, error) {
	return s.readAllIn(ctx, q, afterPosition, limit, dataColumns)
}

// ReadRangeDataIn is ReadAllDataIn of the events with a position above
// afterPosition and at or below through, up to limit of them (0: all), for
// a reader that splits one read of the log into parts read at once on
// several connections (the projector's read ahead): through must be at or
// below a horizon the reader has obtained (Horizon), so that no event can
// appear later in the range.
func (s *Store) ReadRangeDataIn(ctx context.Context, q Querier, afterPosition, through int64, limit int) ([]Record, error) {
	if through <= afterPosition {
		return nil, nil
	}
	if limit <= 0 {
		limit = int(min(through-afterPosition, 1<<30))
	}
	rows, err := q.Query(ctx, `SELECT `+dataColumns+` FROM events
		WHERE global_position > $1 AND global_position <= $2 ORDER BY global_position LIMIT $3`, afterPosition, through, limit)
	if err != nil {
		return nil, fmt.Errorf("read events after %d through %d: %w", afterPosition, through, err)
	}
	return s.scanRecords(rows)
}

// ReadTypesDataIn is ReadAllDataIn for a reader of a few event types
// (the webhook dispatcher): up to limit events of types above
// afterPosition and at or below the horizon, the others neither sent nor
// decoded. through is how far the log was read: the last record's
// position when limit were found, else the horizon, so that the reader's
// checkpoint moves past the events of other types too.
func (s *Store) ReadTypesDataIn(ctx context.Context, q Querier, afterPosition int64, limit int, types []string) (recs []Record, through int64, err error) {
	horizon, err := s.Horizon(ctx, q)
	if err != nil {
		return nil, 0, err
	}
	if horizon <= afterPosition {
		return nil, afterPosition, nil
	}
	rows, err := q.Query(ctx, `SELECT `+dataColumns+` FROM events
		WHERE global_position > $1 AND global_position <= $2 AND event_type = ANY($3)
		ORDER BY global_position LIMIT $4`, afterPosition, horizon, types, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("read %d types after %d: %w", len(types), afterPosition, err)
	}
	if recs, err = s.scanRecords(rows); err != nil {
		return nil, 0, err
	}
	if len(recs) == limit {
		return recs, recs[len(recs)-1].GlobalPosition, nil
	}
	return recs, horizon, nil
}

func (s *Store) readAllIn(ctx context.Context, q Querier, afterPosition int64, limit int, columns string) ([]Record, error) {
	horizon, err := s.Horizon(ctx, q)
	if err != nil {
		return nil, err
	}
	if horizon <= afterPosition {
		return nil, nil
	}
	rows, err := q.Query(ctx, `SELECT `+columns+` FROM events
		WHERE global_position > $1 AND global_position <= $2 ORDER BY global_position LIMIT $3`, afterPosition, horizon, limit)
	if err != nil {
		return nil, fmt.Errorf("read all after %d: %w", afterPosition, err)
	}
	return s.scanRecords(rows)
}

// HeadPosition is the highest committed global position (0 when empty).
func (s *Store) HeadPosition(ctx context.Context) (int64, error) {
	var p int64
	err := s.pool.QueryRow(ctx, `SELECT coalesce(max(global_position), 0) FROM events`).Scan(&p)
	if err != nil {
		return 0, fmt.Errorf("head position: %w", err)
	}
	return p, nil
}

// StreamVersion is the current version of stream (0 when it does not exist).
func (s *Store) StreamVersion(ctx context.Context, stream string) (int64, error) {
	var v int64
	err := s.pool.QueryRow(ctx, `SELECT version FROM streams WHERE stream_id = $1`, stream).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("version of %s: %w", stream, err)
	}
	return v, nil
}

const recordColumns = `global_position, event_id, stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at`

// dataColumns are recordColumns with a NULL for the metadata.
const dataColumns = `global_position, event_id, stream_id, stream_version, event_type, schema_version, data, NULL::jsonb, recorded_at`

func (s *Store) scanRecords(rows pgx.Rows) ([]Record, error) {
	defer rows.Close()
	var out []Record
	for rows.Next() {
		var r Record
		var data, md []byte
		if err := rows.Scan(&r.GlobalPosition, &r.EventID, &r.StreamID, &r.StreamVersion, &r.Type, &r.SchemaVersion, &data, &md, &r.RecordedAt); err != nil {
			return nil, fmt.Errorf("scan event: %w", err)
		}
		r.Data = data
		if md != nil { // NULL: read without metadata (ReadAllDataIn)
			if err := json.Unmarshal(md, &r.Metadata); err != nil {
				return nil, fmt.Errorf("decode metadata of event %d: %w", r.GlobalPosition, err)
			}
		}
		r.RecordedAt = r.RecordedAt.UTC()
		if s.upcast != nil {
			up, err := s.upcast(r)
			if err != nil {
				return nil, fmt.Errorf("upcast event %d: %w", r.GlobalPosition, err)
			}
			r = up
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	return out, nil
}

// DueStreams lists up to limit streams whose wake-up time is at or before now.
func (s *Store) DueStreams(ctx context.Context, now time.Time, limit int) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT stream_id FROM streams WHERE wake_at <= $1 ORDER BY wake_at LIMIT $2`, now, limit)
	if err != nil {
		return nil, fmt.Errorf("due streams: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("due streams: %w", err)
	}
	return ids, nil
}
