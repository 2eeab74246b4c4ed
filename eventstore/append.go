package eventstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Append appends events to stream inside tx, failing with a *ConflictError
// when the stream is not at expectedVersion (0 for a new stream). It does not
// touch the stream's snapshot; use Update for commands.
func (s *Store) Append(ctx context.Context, tx pgx.Tx, stream string, expectedVersion int64, events []NewEvent, md Metadata, at time.Time) ([]Record, error) {
	if len(events) == 0 {
		return nil, nil
	}
	positions, err := drawPositions(ctx, tx, len(events))
	if err != nil {
		return nil, err
	}
	// The head, the events and the commit's wake-up message in one round
	// trip, as a group commit writes them.
	batch := &pgx.Batch{}
	records, err := queueAppend(batch, stream, expectedVersion, events, md, at, positions)
	if err != nil {
		return nil, err
	}
	moved := LogMoved{FirstPosition: records[0].GlobalPosition, LastPosition: records[len(records)-1].GlobalPosition, Events: len(records)}
	if err := queueWakeUp(ctx, batch, moved, records[0].EventID); err != nil {
		return nil, err
	}
	if err := tx.SendBatch(ctx, batch).Close(); err != nil {
		if errors.Is(err, ErrConflict) || isUniqueViolation(err) {
			return nil, &ConflictError{Stream: stream, Expected: expectedVersion}
		}
		return nil, fmt.Errorf("append %s: %w", stream, err)
	}
	return records, nil
}

// stateWrite is a command's new snapshot of its stream and when the stream
// wants to be woken.
type stateWrite struct {
	state  []byte
	wakeAt *time.Time
}

// queueAppend queues, on batch, Append's head move and the inserts of
// events at the given positions (drawn after marking the transaction as
// appending), and returns their records. The snapshot is left as it is.
func queueAppend(batch *pgx.Batch, stream string, expected int64, events []NewEvent, md Metadata, at time.Time, positions []int64) ([]Record, error) {
	if at.IsZero() {
		at = time.Now()
	}
	at = at.UTC()
	sql, args := moveHeadSQL(stream, expected, expected+int64(len(events)))
	batch.Queue(sql, args...).Exec(func(tag pgconn.CommandTag) error {
		if tag.RowsAffected() != 1 {
			return &ConflictError{Stream: stream, Expected: expected}
		}
		return nil
	})
	mdJSON, err := encodeMetadata(md)
	if err != nil {
		return nil, err
	}
	records := newRecords(stream, expected, events, md, at)
	for i := range records {
		r := &records[i]
		r.GlobalPosition = positions[i]
		batch.Queue(insertEvent, r.GlobalPosition, r.EventID, stream, r.StreamVersion, r.Type, r.SchemaVersion, string(r.Data), mdJSON, at)
	}
	return records, nil
}

// insertEvent stores one event at a position drawn before (drawPositions).
const insertEvent = `INSERT INTO events (global_position, event_id, stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`

// newRecords are the records of events appended to stream after version
// expected (positions not yet known).
func newRecords(stream string, expected int64, events []NewEvent, md Metadata, at time.Time) []Record {
	records := make([]Record, len(events))
	for i, e := range events {
		records[i] = Record{
			EventID:       uuid.New(),
			StreamID:      stream,
			StreamVersion: expected + int64(i) + 1,
			Type:          e.Type,
			SchemaVersion: e.schemaVersion(),
			Data:          e.Data,
			Metadata:      md,
			RecordedAt:    at,
		}
	}
	return records
}

// schemaVersion is e's schema version, 1 when it has none.
func (e NewEvent) schemaVersion() int {
	if e.SchemaVersion == 0 {
		return 1
	}
	return e.SchemaVersion
}

func encodeMetadata(md Metadata) (string, error) {
	b, err := json.Marshal(md)
	if err != nil {
		return "", fmt.Errorf("encode metadata: %w", err)
	}
	return string(b), nil
}

// moveHeadSQL is the statement that moves stream's head from expected to
// newVersion (Append's; the snapshot is left as it is) under a fresh
// token: it moves one row, or none on a conflict.
func moveHeadSQL(stream string, expected, newVersion int64) (string, []any) {
	if expected == 0 {
		return `INSERT INTO streams (stream_id, version, token) VALUES ($1, $2, $3) ON CONFLICT (stream_id) DO NOTHING`,
			[]any{stream, newVersion, newToken()}
	}
	return `UPDATE streams SET version = $3, token = $4, updated_at = now()
		WHERE stream_id = $1 AND version = $2`, []any{stream, expected, newVersion, newToken()}
}

func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}
