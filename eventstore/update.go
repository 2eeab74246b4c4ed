package eventstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Snapshot is what a command sees of its stream: the head version, the last
// saved state (nil for none) with the version it reflects, and the events
// after it (normally none; present when events were appended without a state).
type Snapshot struct {
	Version      int64
	State        []byte
	StateVersion int64
	Tail         []Record
}

// Decision is a command's outcome: the events to append, the new state
// (reflecting those events), when the stream wants to be woken (for example
// when credits expire), a result kept with the idempotency key, and the time
// the command was decided at (recorded_at; zero means UpdateOptions.At). A
// decider that reads its clock after the stream is locked gets times that
// never run backwards within a stream.
type Decision struct {
	Events []NewEvent
	State  []byte
	WakeAt *time.Time
	Result []byte
	At     time.Time
}

// UpdateOptions carry what is the same for every attempt of a command.
type UpdateOptions struct {
	Metadata       Metadata
	IdempotencyKey string
	RequestHash    string    // a hash of the request; a reused key with another hash is refused
	At             time.Time // recorded_at of appended events; zero means now
}

// Result tells what a command appended.
type Result struct {
	StreamVersion int64
	FirstPosition int64 // 0 when nothing was appended
	LastPosition  int64
	Result        []byte
	Replayed      bool // an earlier command with the same idempotency key answered
}

// DecideFunc decides a command on a locked snapshot. tx is the command's
// transaction, for operational tables that must change atomically with it.
type DecideFunc func(ctx context.Context, tx pgx.Tx, snap Snapshot) (Decision, error)

// Update runs one command on stream: lock the stream's head, load its
// snapshot, decide, append and save the new snapshot in one transaction,
// retrying a bounded number of times on a conflict. Its cost does not grow
// with the stream's length.
func (s *Store) Update(ctx context.Context, stream string, opts UpdateOptions, decide DecideFunc) (Result, error) {
	var err error
	for attempt := 0; attempt <= s.maxRetries; attempt++ {
		var res Result
		res, err = s.updateOnce(ctx, stream, opts, decide)
		if !errors.Is(err, ErrConflict) {
			return res, err
		}
		select {
		case <-ctx.Done():
			return Result{}, ctx.Err()
		case <-time.After(time.Duration(rand.IntN(5*(attempt+1))) * time.Millisecond):
		}
	}
	return Result{}, fmt.Errorf("update %s after %d retries: %w", stream, s.maxRetries, err)
}

func (s *Store) updateOnce(ctx context.Context, stream string, opts UpdateOptions, decide DecideFunc) (Result, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()

	snap, err := s.snapshot(ctx, tx, stream, " FOR UPDATE")
	if err != nil {
		return Result{}, err
	}

	if opts.IdempotencyKey != "" {
		res, found, err := s.findIdempotent(ctx, tx, stream, opts)
		if err != nil || found {
			return res, err
		}
	}

	d, err := decide(ctx, tx, snap)
	if err != nil {
		return Result{}, err
	}
	res := Result{StreamVersion: snap.Version, Result: d.Result}
	switch {
	case len(d.Events) > 0:
		at := opts.At
		if !d.At.IsZero() {
			at = d.At
		}
		recs, err := s.appendTx(ctx, tx, stream, snap.Version, d.Events, opts.Metadata, at, &stateWrite{state: d.State, wakeAt: d.WakeAt})
		if err != nil {
			return Result{}, err
		}
		res.StreamVersion = recs[len(recs)-1].StreamVersion
		res.FirstPosition = recs[0].GlobalPosition
		res.LastPosition = recs[len(recs)-1].GlobalPosition
	case d.State != nil && snap.Version > 0:
		if err := s.moveHead(ctx, tx, stream, snap.Version, snap.Version, &stateWrite{state: d.State, wakeAt: d.WakeAt}); err != nil {
			return Result{}, err
		}
	}
	if opts.IdempotencyKey != "" {
		if _, err := tx.Exec(ctx, insertIdempotencyKey,
			stream, opts.IdempotencyKey, opts.RequestHash, d.Result, res.FirstPosition, res.LastPosition, res.StreamVersion); err != nil {
			if isUniqueViolation(err) {
				return Result{}, &ConflictError{Stream: stream, Expected: snap.Version}
			}
			return Result{}, fmt.Errorf("record idempotency key: %w", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		if isUniqueViolation(err) {
			return Result{}, &ConflictError{Stream: stream, Expected: snap.Version}
		}
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) {
			// No answer from the server to COMMIT: it may have committed.
			return Result{}, fmt.Errorf("commit %s: %w: %w", stream, ErrCommitUnknown, err)
		}
		return Result{}, fmt.Errorf("commit %s: %w", stream, err)
	}
	return res, nil
}

// Snapshot reads stream's current snapshot without locking it: what a
// command would see, for reads that must be current (an answer built from
// the aggregate rather than the read tables). Version 0: no such stream.
func (s *Store) Snapshot(ctx context.Context, stream string) (Snapshot, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return Snapshot{}, fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	return s.snapshot(ctx, tx, stream, "")
}

// snapshot loads the stream's row (lock: "" or " FOR UPDATE") and the
// events appended after its state, in one transaction.
func (s *Store) snapshot(ctx context.Context, tx pgx.Tx, stream, lock string) (Snapshot, error) {
	var snap Snapshot
	err := tx.QueryRow(ctx, `SELECT version, state, state_version FROM streams WHERE stream_id = $1`+lock, stream).
		Scan(&snap.Version, &snap.State, &snap.StateVersion)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return Snapshot{}, fmt.Errorf("load %s: %w", stream, err)
	}
	if snap.StateVersion < snap.Version {
		if snap.Tail, err = s.readStream(ctx, tx, stream, snap.StateVersion, 0); err != nil {
			return Snapshot{}, err
		}
	}
	return snap, nil
}

func (s *Store) findIdempotent(ctx context.Context, tx pgx.Tx, stream string, opts UpdateOptions) (Result, bool, error) {
	var hash string
	var res Result
	err := tx.QueryRow(ctx, `SELECT request_hash, result, first_position, last_position, stream_version
		FROM idempotency_keys WHERE stream_id = $1 AND idempotency_key = $2`, stream, opts.IdempotencyKey).
		Scan(&hash, &res.Result, &res.FirstPosition, &res.LastPosition, &res.StreamVersion)
	if errors.Is(err, pgx.ErrNoRows) {
		return Result{}, false, nil
	}
	if err != nil {
		return Result{}, false, fmt.Errorf("idempotency key: %w", err)
	}
	if hash != opts.RequestHash {
		return Result{}, true, ErrIdempotencyKeyReused
	}
	res.Replayed = true
	return res, true, nil
}
