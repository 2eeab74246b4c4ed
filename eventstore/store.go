// Package eventstore is the append-only log of the product: append with
// optimistic concurrency, read a stream, read everything from a global
// position, and publish appended events in the same transaction. It is the
// only package that writes the events table.
//
// Global positions are assigned under a transaction-scoped advisory lock that
// is held until commit, so positions become visible in strictly increasing
// order and a reader tailing by position never skips an event that commits
// late (see docs/event-store.md).
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

// positionLockKey is the advisory lock that serialises the assignment of
// global positions until commit ("ledger" in ASCII).
const positionLockKey int64 = 0x6c6564676572

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
	if at.IsZero() {
		at = time.Now()
	}
	at = at.UTC()
	newVersion := expected + int64(len(events))

	if err := s.moveHead(ctx, tx, stream, expected, newVersion, st); err != nil {
		return nil, err
	}

	// From here to commit, nobody else can take a global position.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, positionLockKey); err != nil {
		return nil, fmt.Errorf("lock positions: %w", err)
	}
	mdJSON, err := json.Marshal(md)
	if err != nil {
		return nil, fmt.Errorf("encode metadata: %w", err)
	}
	records := make([]Record, len(events))
	batch := &pgx.Batch{}
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
		r := &records[i]
		batch.Queue(`INSERT INTO events (global_position, event_id, stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at)
			VALUES (nextval('events_position_seq'), $1, $2, $3, $4, $5, $6, $7, $8) RETURNING global_position`,
			r.EventID, stream, r.StreamVersion, r.Type, r.SchemaVersion, string(e.Data), string(mdJSON), at,
		).QueryRow(func(row pgx.Row) error { return row.Scan(&r.GlobalPosition) })
	}
	if err := tx.SendBatch(ctx, batch).Close(); err != nil {
		if isUniqueViolation(err) {
			return nil, &ConflictError{Stream: stream, Expected: expected}
		}
		return nil, fmt.Errorf("append %s: %w", stream, err)
	}
	if err := s.publish(ctx, tx, records); err != nil {
		return nil, err
	}
	return records, nil
}

// moveHead advances the stream's head from expected to newVersion, the
// optimistic concurrency check, and writes the snapshot when given.
func (s *Store) moveHead(ctx context.Context, tx pgx.Tx, stream string, expected, newVersion int64, st *stateWrite) error {
	var state []byte
	var wakeAt *time.Time
	stateVersion := int64(0)
	if st != nil {
		state, wakeAt, stateVersion = st.state, st.wakeAt, newVersion
	}
	var tag pgconn.CommandTag
	var err error
	if expected == 0 {
		tag, err = tx.Exec(ctx, `INSERT INTO streams (stream_id, version, state, state_version, wake_at)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (stream_id) DO NOTHING`,
			stream, newVersion, nullJSON(state), stateVersion, wakeAt)
	} else if st != nil {
		tag, err = tx.Exec(ctx, `UPDATE streams SET version = $3, state = $4, state_version = $5, wake_at = $6, updated_at = now()
			WHERE stream_id = $1 AND version = $2`, stream, expected, newVersion, nullJSON(state), stateVersion, wakeAt)
	} else {
		tag, err = tx.Exec(ctx, `UPDATE streams SET version = $3, updated_at = now()
			WHERE stream_id = $1 AND version = $2`, stream, expected, newVersion)
	}
	if err != nil {
		return fmt.Errorf("move head of %s: %w", stream, err)
	}
	if tag.RowsAffected() != 1 {
		return &ConflictError{Stream: stream, Expected: expected}
	}
	return nil
}

func (s *Store) publish(ctx context.Context, tx pgx.Tx, records []Record) error {
	pub, err := wsql.NewPublisher(wsql.TxFromPgx(tx), wsql.PublisherConfig{SchemaAdapter: wsql.DefaultPostgreSQLSchema{}}, s.logger)
	if err != nil {
		return fmt.Errorf("publisher: %w", err)
	}
	msgs := make([]*message.Message, len(records))
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
	if err := pub.Publish(Topic, msgs...); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
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
// afterPosition, in position order. Positions become visible in increasing
// order, so a reader that remembers the last position it saw never skips one.
func (s *Store) ReadAll(ctx context.Context, afterPosition int64, limit int) ([]Record, error) {
	return s.ReadAllIn(ctx, s.pool, afterPosition, limit)
}

// ReadAllIn is ReadAll through q (a transaction).
func (s *Store) ReadAllIn(ctx context.Context, q Querier, afterPosition int64, limit int) ([]Record, error) {
	rows, err := q.Query(ctx, `SELECT `+recordColumns+` FROM events
		WHERE global_position > $1 ORDER BY global_position LIMIT $2`, afterPosition, limit)
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
