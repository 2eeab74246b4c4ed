// Package eventstore is the append-only log of the product: append with
// optimistic concurrency, read a stream, read everything from a global
// position, and publish appended events in the same transaction. It is the
// only package that writes the events table.
//
// Appends to different streams commit in parallel. Global positions come
// from a sequence, so they may become visible out of order; readers that
// tail by position read only up to the horizon (Horizon), below which every
// drawn position's transaction has ended, so they never skip an event that
// commits late (see docs/event-store.md).
package eventstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wsql "github.com/ThreeDotsLabs/watermill-sql/v4/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Topic is the watermill topic on which every appended event is published.
const Topic = "account_events"

// appendingKey is the advisory lock every appending transaction holds in
// shared mode, from before it draws positions until it ends ("ledger" in
// ASCII). Shared holders never wait for each other; readers only look at
// who holds it (Horizon) and never take it.
const appendingKey int64 = 0x6c6564676572

// ErrConflict is matched (errors.Is) by every concurrency conflict.
var ErrConflict = errors.New("stream version conflict")

// ErrIdempotencyKeyReused is returned when an idempotency key comes back with
// a different request than the one it was first used for.
var ErrIdempotencyKeyReused = errors.New("idempotency key reused with a different request")

// ErrCommitUnknown is returned when the connection failed during COMMIT:
// the transaction may have committed or not. Retrying with the same
// idempotency key tells which without applying it twice.
var ErrCommitUnknown = errors.New("the outcome of the commit is unknown")

// ConflictError says a stream moved since it was read.
type ConflictError struct {
	Stream   string
	Expected int64
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("stream %s: expected version %d: %v", e.Stream, e.Expected, ErrConflict)
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// Metadata travels with every event: who and what caused it.
type Metadata struct {
	CorrelationID string `json:"correlationId,omitempty"`
	CausationID   string `json:"causationId,omitempty"`
	Actor         string `json:"actor,omitempty"`
	RequestID     string `json:"requestId,omitempty"`
	// IdempotencyKey is the key the client sent with the request, as sent
	// (the desktop API reads a listing back by it after the key's replay
	// window). Never a secret.
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
}

// NewEvent is an event to append.
type NewEvent struct {
	Type          string
	SchemaVersion int
	Data          []byte
}

// Record is a stored event.
type Record struct {
	GlobalPosition int64
	EventID        uuid.UUID
	StreamID       string
	StreamVersion  int64
	Type           string
	SchemaVersion  int
	Data           json.RawMessage
	Metadata       Metadata
	RecordedAt     time.Time
}

// Upcaster rewrites an old record into its current shape when it is read.
type Upcaster func(Record) (Record, error)

// Notification is the payload published for each appended event.
type Notification struct {
	StreamID       string `json:"streamId"`
	StreamVersion  int64  `json:"streamVersion"`
	GlobalPosition int64  `json:"globalPosition"`
	EventType      string `json:"eventType"`
}

// Store reads and writes the event log.
type Store struct {
	pool       *pgxpool.Pool
	upcast     Upcaster
	logger     watermill.LoggerAdapter
	maxRetries int
}

// Option configures a Store.
type Option func(*Store)

// WithUpcaster applies u to every record read.
func WithUpcaster(u Upcaster) Option { return func(s *Store) { s.upcast = u } }

// WithMaxRetries bounds how often Update retries after a conflict.
func WithMaxRetries(n int) Option { return func(s *Store) { s.maxRetries = n } }

// WithLogger sets the watermill logger used for publication.
func WithLogger(l watermill.LoggerAdapter) Option { return func(s *Store) { s.logger = l } }

// New returns a Store on pool.
func New(pool *pgxpool.Pool, opts ...Option) *Store {
	s := &Store{pool: pool, logger: watermill.NopLogger{}, maxRetries: 10}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Pool returns the connection pool the store uses.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Append appends events to stream inside tx, failing with a *ConflictError
// when the stream is not at expectedVersion (0 for a new stream). It does not
// touch the stream's snapshot; use Update for commands.
func (s *Store) Append(ctx context.Context, tx pgx.Tx, stream string, expectedVersion int64, events []NewEvent, md Metadata, at time.Time) ([]Record, error) {
	return s.appendTx(ctx, tx, stream, expectedVersion, events, md, at, nil)
}

type stateWrite struct {
	state  []byte
	wakeAt *time.Time
}

func (s *Store) appendTx(ctx context.Context, tx pgx.Tx, stream string, expected int64, events []NewEvent, md Metadata, at time.Time, st *stateWrite) ([]Record, error) {
	if len(events) == 0 {
		return nil, nil
	}
	positions, err := drawPositions(ctx, tx, len(events))
	if err != nil {
		return nil, err
	}
	// The head, the events and their outbox rows in one round trip, as a
	// group commit writes them.
	batch := &pgx.Batch{}
	records, err := s.queueAppend(batch, stream, expected, events, md, at, st, positions)
	if err != nil {
		return nil, err
	}
	if err := queueOutbox(ctx, batch, records); err != nil {
		return nil, err
	}
	if err := tx.SendBatch(ctx, batch).Close(); err != nil {
		if errors.Is(err, ErrConflict) || isUniqueViolation(err) {
			return nil, &ConflictError{Stream: stream, Expected: expected}
		}
		return nil, fmt.Errorf("append %s: %w", stream, err)
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
		sv := e.SchemaVersion
		if sv == 0 {
			sv = 1
		}
		records[i] = Record{
			EventID:       uuid.New(),
			StreamID:      stream,
			StreamVersion: expected + int64(i) + 1,
			Type:          e.Type,
			SchemaVersion: sv,
			Data:          e.Data,
			Metadata:      md,
			RecordedAt:    at,
		}
	}
	return records
}

func encodeMetadata(md Metadata) (string, error) {
	b, err := json.Marshal(md)
	if err != nil {
		return "", fmt.Errorf("encode metadata: %w", err)
	}
	return string(b), nil
}

// moveHead advances the stream's head from expected to newVersion, the
// optimistic concurrency check, and writes the snapshot when given.
func (s *Store) moveHead(ctx context.Context, tx pgx.Tx, stream string, expected, newVersion int64, st *stateWrite) error {
	sql, args := moveHeadSQL(stream, expected, newVersion, st)
	tag, err := tx.Exec(ctx, sql, args...)
	if err != nil {
		return fmt.Errorf("move head of %s: %w", stream, err)
	}
	if tag.RowsAffected() != 1 {
		return &ConflictError{Stream: stream, Expected: expected}
	}
	return nil
}

// moveHeadSQL is moveHead's statement: it moves one row, or none on a
// conflict.
func moveHeadSQL(stream string, expected, newVersion int64, st *stateWrite) (string, []any) {
	var state []byte
	var wakeAt *time.Time
	stateVersion := int64(0)
	if st != nil {
		state, wakeAt, stateVersion = st.state, st.wakeAt, newVersion
	}
	switch {
	case expected == 0:
		return `INSERT INTO streams (stream_id, version, state, state_version, wake_at)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (stream_id) DO NOTHING`,
			[]any{stream, newVersion, nullJSON(state), stateVersion, wakeAt}
	case st != nil:
		return `UPDATE streams SET version = $3, state = $4, state_version = $5, wake_at = $6, updated_at = now()
			WHERE stream_id = $1 AND version = $2`, []any{stream, expected, newVersion, nullJSON(state), stateVersion, wakeAt}
	default:
		return `UPDATE streams SET version = $3, updated_at = now()
			WHERE stream_id = $1 AND version = $2`, []any{stream, expected, newVersion}
	}
}

// queueOutbox queues on batch the outbox rows of records: watermill-sql's
// own insert into its table for Topic (its schema adapter writes the
// statement), in the append's transaction, so publication is never a dual
// write.
func queueOutbox(ctx context.Context, batch *pgx.Batch, records []Record) error {
	msgs := make(message.Messages, len(records))
	for i, r := range records {
		payload, err := json.Marshal(Notification{StreamID: r.StreamID, StreamVersion: r.StreamVersion, GlobalPosition: r.GlobalPosition, EventType: r.Type})
		if err != nil {
			return fmt.Errorf("encode notification: %w", err)
		}
		m := message.NewMessage(r.EventID.String(), payload)
		m.SetContext(ctx)
		m.Metadata.Set("correlation_id", r.Metadata.CorrelationID)
		m.Metadata.Set("request_id", r.Metadata.RequestID)
		msgs[i] = m
	}
	q, err := wsql.DefaultPostgreSQLSchema{}.InsertQuery(wsql.InsertQueryParams{Topic: Topic, Msgs: msgs})
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	batch.Queue(q.Query, q.Args...)
	return nil
}

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
	horizon, err := s.Horizon(ctx, q)
	if err != nil {
		return nil, err
	}
	if horizon <= afterPosition {
		return nil, nil
	}
	rows, err := q.Query(ctx, `SELECT `+recordColumns+` FROM events
		WHERE global_position > $1 AND global_position <= $2 ORDER BY global_position LIMIT $3`, afterPosition, horizon, limit)
	if err != nil {
		return nil, fmt.Errorf("read all after %d: %w", afterPosition, err)
	}
	return s.scanRecords(rows)
}

// Horizon is the highest global position at or below which every position
// drawn so far belongs to a transaction that has ended: its events are
// visible to any later statement, or gone for good (a rollback's gap).
//
// It reads the last drawn position, then the appending transactions in
// flight (holders of appendingKey, taken before drawing), and waits until
// those have ended. A transaction that drew a position at or below the last
// one had marked itself first, so it is among them or already over. Only
// appends are waited for, never a long transaction elsewhere, and the wait
// is as long as the slowest of them takes to commit.
func (s *Store) Horizon(ctx context.Context, q Querier) (int64, error) {
	var last int64
	if err := q.QueryRow(ctx, `SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM events_position_seq`).Scan(&last); err != nil {
		return 0, fmt.Errorf("last position: %w", err)
	}
	inFlight, err := appendsInFlight(ctx, q, nil)
	if err != nil {
		return 0, err
	}
	for delay := 200 * time.Microsecond; len(inFlight) > 0; delay = min(2*delay, 10*time.Millisecond) {
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(delay):
		}
		if inFlight, err = appendsInFlight(ctx, q, inFlight); err != nil {
			return 0, err
		}
	}
	return last, nil
}

// appendsInFlight lists the virtual transaction ids of the appends in
// flight (granted appendingKey locks in this database; a bigint advisory key
// shows as classid = high half, objid = low half), but the reader's own: a
// transaction that appends and then reads must not wait for itself. With
// among, only those of among that are still in flight.
func appendsInFlight(ctx context.Context, q Querier, among []string) ([]string, error) {
	var ids []string
	err := q.QueryRow(ctx, `SELECT coalesce(array_agg(virtualtransaction), '{}') FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND pid <> pg_backend_pid()
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
		AND classid = $1::bigint::oid AND objid = $2::bigint::oid
		AND ($3::text[] IS NULL OR virtualtransaction = ANY($3))`, appendingKey>>32, appendingKey&0xffffffff, among).Scan(&ids)
	if err != nil {
		return nil, fmt.Errorf("appends in flight: %w", err)
	}
	return ids, nil
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
		if err := json.Unmarshal(md, &r.Metadata); err != nil {
			return nil, fmt.Errorf("decode metadata of event %d: %w", r.GlobalPosition, err)
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

func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

func nullJSON(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
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

// NewSubscriber reads the outbox of appended events (topic Topic) as
// consumerGroup, polling every pollInterval when idle. Each consumer group
// gets every event, in commit order, at least once.
func NewSubscriber(pool *pgxpool.Pool, consumerGroup string, pollInterval time.Duration, logger watermill.LoggerAdapter) (message.Subscriber, error) {
	return wsql.NewSubscriber(wsql.BeginnerFromPgx(pool), wsql.SubscriberConfig{
		ConsumerGroup:  consumerGroup,
		PollInterval:   pollInterval,
		SchemaAdapter:  wsql.DefaultPostgreSQLSchema{},
		OffsetsAdapter: wsql.DefaultPostgreSQLOffsetsAdapter{},
	}, logger)
}
