package eventstore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
)

// Snapshot is what a command sees of its stream: the head version and
// token, the last saved state (nil for none) with the version it reflects,
// and the events after it (present when events were appended without a
// state: by Append, or by decisions that left State nil).
//
// Current says the head is the one the command's UpdateOptions.Known
// named: then State and Tail are not read (nil), and the caller is trusted
// to hold the stream's state at Version from the write that left Token.
type Snapshot struct {
	Version      int64
	Token        int64
	State        []byte
	StateVersion int64
	Tail         []Record
	Current      bool
}

// Head names one write of a stream's head: the version it left and the
// token it drew (migration 00038). Every write of a head draws a fresh
// random non-zero token, so a head at Version with Token is the one that
// write left: not another process's write at the same version, nor a
// head that a failover took back and another history brought to that
// version again. A head no binary of this version has written since the
// migration has no token (0), and matches no Head.
type Head struct {
	Version int64
	Token   int64
}

// Decision is a command's outcome: the events to append, the new state
// (reflecting those events; nil keeps the stream's saved state and its
// version as they are, so the events become part of the next commands'
// Tail), when the stream wants to be woken (for example
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
	// Known is the head the caller believes current (zero: none). When the
	// stream's head is exactly that one, the command's Snapshot is Current:
	// the saved state is neither sent nor read, nor the tail after it.
	Known Head
}

// Result tells what a command appended. Unless Replayed, it is what the
// last run of the command's DecideFunc decided (see DecideFunc).
type Result struct {
	StreamVersion int64
	FirstPosition int64 // 0 when nothing was appended
	LastPosition  int64
	Result        []byte
	Replayed      bool // an earlier command with the same idempotency key answered
	// Token is the token of the head the command left: the one its write
	// drew, or the head's as the command found it when it wrote no head;
	// 0 when Replayed.
	Token int64
}

// DecideFunc decides a command on a locked snapshot. tx is the command's
// transaction, for operational tables that must change atomically with it.
//
// It may run more than once for one command: Update retries it after a
// conflict, and a group commit that fails runs it again on its own. The
// contract callers rely on (accounts' spend cache does): when the command
// returns a nil error and a Result that is not Replayed, the decision that
// committed is the one the decider's last run returned, and no run follows
// it. A replayed answer may come after runs that decided (an attempt that
// conflicted, then found the key kept by another); an error (a refusal, a
// failed commit, ErrCommitUnknown) says nothing of which run, if any, is
// committed.
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

// updateOnce is one attempt of Update: transact with the command alone.
func (s *Store) updateOnce(ctx context.Context, stream string, opts UpdateOptions, decide DecideFunc) (Result, error) {
	out, err := s.transactOne(ctx, Command{Stream: stream, Opts: opts, Decide: decide})
	if err != nil {
		return Result{}, err
	}
	return out[0].Result, out[0].Err
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
	return s.snapshot(ctx, tx, stream)
}

// SnapshotIn is Snapshot read in the caller's transaction tx, which sees
// what committed before each of its statements (READ COMMITTED): a
// decision taken under a lock of the caller's reads the stream as it is
// once the lock is held, on the connection that holds it.
func (s *Store) SnapshotIn(ctx context.Context, tx pgx.Tx, stream string) (Snapshot, error) {
	return s.snapshot(ctx, tx, stream)
}

// snapshot loads the stream's row and the events appended after its state,
// in one transaction and one round trip: the tail's statement finds the
// state version itself. Under READ COMMITTED (SnapshotIn) the row may move
// between the two statements; a tail that is not exactly the events
// between the row's state version and its version is then read again.
func (s *Store) snapshot(ctx context.Context, tx pgx.Tx, stream string) (Snapshot, error) {
	var snap Snapshot
	var token *int64
	var tail []Record
	batch := &pgx.Batch{}
	batch.Queue(`SELECT version, token, `+snapshotColumn+`, state_version FROM streams WHERE stream_id = $1`, stream).
		QueryRow(func(row pgx.Row) error {
			err := row.Scan(&snap.Version, &token, &snap.State, &snap.StateVersion)
			if errors.Is(err, pgx.ErrNoRows) {
				return nil
			}
			return err
		})
	batch.Queue(`SELECT `+recordColumns+` FROM events
		WHERE stream_id = $1 AND stream_version > (SELECT state_version FROM streams WHERE stream_id = $1)
		ORDER BY stream_version`, stream).
		Query(func(rows pgx.Rows) error {
			var err error
			tail, err = s.scanRecords(rows)
			return err
		})
	// Through tx's connection (the same session and transaction): a read,
	// which a transaction that watches its deciders' writes (a group
	// commit's) must not count as one.
	if err := tx.Conn().SendBatch(ctx, batch).Close(); err != nil {
		return Snapshot{}, fmt.Errorf("load %s: %w", stream, err)
	}
	if token != nil {
		snap.Token = *token
	}
	if snap.StateVersion >= snap.Version {
		return snap, nil
	}
	for len(tail) > 0 && tail[len(tail)-1].StreamVersion > snap.Version {
		tail = tail[:len(tail)-1] // appended after the row was read
	}
	if int64(len(tail)) == snap.Version-snap.StateVersion && tail[0].StreamVersion == snap.StateVersion+1 {
		snap.Tail = tail
		return snap, nil
	}
	return snap, s.readTail(ctx, tx, stream, &snap)
}

// snapshotColumn reads a stream's saved state: its jsonb state column
// printed as JSON when it holds one, else the bytes of its snapshot column
// (migration 00036) when it holds them, else the bytes of its saved column
// (migration 00038). This code writes saved and clears state and snapshot,
// so a state is from before 00036 or written since by a binary from before
// it, and a snapshot from before 00038 or written since by a binary from
// before it (a rolling upgrade): either is then newer than what follows
// it. saved is the row's last column, after token: a head write that keeps
// the saved state leaves it in the unchanged suffix of the row, which
// PostgreSQL leaves out of the WAL record of an update on the same page
// (docs/benchmarks.md, issue 36, eighth session).
const snapshotColumn = `coalesce(convert_to(state::text, 'UTF8'), snapshot, saved)`

// snapshotColumnOfS is snapshotColumn of the streams row aliased s.
const snapshotColumnOfS = `coalesce(convert_to(s.state::text, 'UTF8'), s.snapshot, s.saved)`

// readTail reads into snap the events of stream appended after its saved
// state up to its version, when there are any and snap is not Current
// (whose caller holds the state at the head). Up to: under READ COMMITTED
// (SnapshotIn's fallback) events appended after the row was read are not
// snap's; under a lock there are none.
func (s *Store) readTail(ctx context.Context, q Querier, stream string, snap *Snapshot) error {
	if snap.Current || snap.StateVersion >= snap.Version {
		return nil
	}
	tail, err := s.readStream(ctx, q, stream, snap.StateVersion, int(snap.Version-snap.StateVersion))
	snap.Tail = tail
	return err
}

// newToken draws a head's token: random, never 0 (no token).
func newToken() int64 { return 1 + rand.Int64N(math.MaxInt64) }
