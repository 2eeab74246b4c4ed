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
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Topic is the watermill topic on which every transaction that appended
// events publishes one LogMoved message.
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
	// Reason is why a staff member asked for what the events record (a
	// refund or cancellation from the console, applied from the provider's
	// webhook): shown beside them in the staff history. Never a secret.
	Reason    string `json:"reason,omitempty"`
	RequestID string `json:"requestId,omitempty"`
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

// LogMoved is the payload of the one message a committed transaction that
// appended events publishes: the global positions of its first and last
// events and how many it appended. Messages of releases before it (one per
// event, with streamId, streamVersion, globalPosition and eventType) may
// still sit in the outbox after an upgrade; consumers only take either as
// "the log moved".
type LogMoved struct {
	FirstPosition int64 `json:"firstPosition"`
	LastPosition  int64 `json:"lastPosition"`
	Events        int   `json:"events"`
}

// Store reads and writes the event log.
type Store struct {
	pool       *pgxpool.Pool
	upcast     Upcaster
	logger     watermill.LoggerAdapter
	maxRetries int

	// eventsPerCommand is how many positions a group commit draws per
	// command with its locks (zero: one), learnt from the last group commit
	// that wrote (drawHint): a listing spend appended two events (one since
	// issue 36's tenth session), so drawing one per command cost every batch
	// of spends a round trip more; learnt, it follows what commands append.
	eventsPerCommand atomic.Int64
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
