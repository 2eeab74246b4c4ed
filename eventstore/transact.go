package eventstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pendingWrite is a decided command's writes.
type pendingWrite struct {
	index    int // in the batch
	snap     Snapshot
	decision Decision
	first    int // index of its first event in the batch's positions
}

// transactOne runs Update's command alone (decideAlone), drawing its
// positions once it has decided.
func (s *Store) transactOne(ctx context.Context, c Command) ([]Outcome, error) {
	return s.transact(ctx, []Command{c}, decideAlone, false)
}

// transactGroup runs a group commit's commands together (decideGroup), in
// fewer round trips than Update's: its BEGIN goes out with the statements
// that lock the streams (pgx's Batch.BeginTx), and so does the drawing of
// positions, as many per command as the last group commit's commands
// appended (drawHint: one for a spend since issue 36's tenth session, two for the two-event spends before it), so a group commit whose
// commands append no more than that needs no round trip of its own to draw
// them; positions it does not use are gaps in the log, as a rollback's are.
// With the COMMIT in the write round trip, a batch of spends takes two.
func (s *Store) transactGroup(ctx context.Context, cmds []Command) ([]Outcome, error) {
	return s.transact(ctx, cmds, decideGroup, true)
}

// decideStep decides the commands of a transaction on their snapshots and
// returns every command's outcome so far, the writes of those that write,
// and how many events they append: decideAlone or decideGroup.
type decideStep func(ctx context.Context, tx pgx.Tx, cmds []Command, snaps []Snapshot, replays map[int]Outcome) (out []Outcome, writes []pendingWrite, events int, err error)

// transact runs commands on distinct streams in one transaction: Update's
// (one command, transactOne) and UpdateMany's (a group commit,
// transactGroup). It locks the
// streams' rows in a fixed order and finds the replays in one round trip,
// decides each command on its own snapshot, draws the positions, and
// writes every head, event and idempotency key and the commit's wake-up
// message and commits in one round trip (the heads' check is the server's:
// eventstore_expect_rows).
//
// Its error means nothing was committed, except ErrCommitUnknown, which
// every writing command's outcome then carries; a *ConflictError (a stream
// moved or created meanwhile, a key inserted meanwhile) is worth a retry.
// A refusal is its command's outcome. Alone, a refusal rolls back whatever
// the decider wrote; in a group, a decider that wrote and then refused
// fails the transaction, so that everyone runs again alone.
//
// A group (transactGroup) begins with its first round trip and draws
// positions for its commands with the locks (drawHint's per command),
// before deciding; the rest, if the decisions need more, after.
func (s *Store) transact(ctx context.Context, cmds []Command, decide decideStep, group bool) ([]Outcome, error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("acquire a connection: %w", err)
	}
	var tx pgx.Tx // a group's begins in lockMany's round trip
	// Rolls back what did not commit and hands the connection back; after
	// the COMMIT of the write round trip there is nothing to roll back, so
	// a committed transaction costs no round trip more.
	defer func() { release(ctx, conn, tx) }()
	predraw := len(cmds) * int(max(1, s.eventsPerCommand.Load()))
	if !group {
		if tx, err = conn.Begin(ctx); err != nil {
			return nil, fmt.Errorf("begin: %w", err)
		}
		predraw = 0
	}
	tx, snaps, replays, positions, err := s.lockMany(ctx, conn, tx, cmds, predraw)
	if err != nil {
		return nil, err
	}
	out, writes, events, err := decide(ctx, tx, cmds, snaps, replays)
	if err != nil || len(writes) == 0 {
		return out, err // nothing to commit: refusals and replays only, or a refusal alone
	}
	if group {
		s.eventsPerCommand.Store(drawHint(events, len(writes)))
	}
	if events > len(positions) {
		more, err := drawPositions(ctx, tx, events-len(positions))
		if err != nil {
			return nil, err
		}
		positions = append(positions, more...)
	}
	batch, g, wire, err := queueWrites(ctx, paramsOf(conn.Conn()), cmds, writes, events, positions, out)
	if err != nil {
		return nil, err
	}
	// Heads, snapshots, events, the wake-up message, idempotency keys and
	// the COMMIT: one round trip. A statement's error skips the rest, the
	// COMMIT with them (the server ignores what follows an error until the
	// batch's Sync), so nothing is committed unless every write was made.
	batch.Queue("COMMIT")
	lendWriteBuffer(conn.Conn().PgConn(), wire)
	if err := tx.SendBatch(ctx, batch).Close(); err != nil {
		return writeFailed(err, cmds, g, writes, out)
	}
	return out, nil
}

// maxDrawPerCommand bounds drawHint: one command that appends many events
// must not make the next batches draw that many positions per command.
const maxDrawPerCommand = 4

// drawHint is how many positions per command the next group commit draws
// with its locks, after one whose writes appended events: their mean,
// rounded up, between 1 and maxDrawPerCommand. Spends alike (a listing's one
// event) then draw exactly what they append, in the lock round trip;
// positions drawn too many are gaps in the log, as a rollback's are.
func drawHint(events, writes int) int64 {
	return int64(min(maxDrawPerCommand, max(1, (events+writes-1)/writes)))
}

// release rolls tx back unless it ended (committed, or closed by a failed
// batch that began it) and hands conn back to the pool, which drops a
// connection left in a transaction or broken.
func release(ctx context.Context, conn *pgxpool.Conn, tx pgx.Tx) {
	if tx != nil && conn.Conn().PgConn().TxStatus() != 'I' && !conn.Conn().IsClosed() {
		_ = tx.Rollback(ctx)
	}
	conn.Release()
}

// decideAlone decides Update's one command. A refusal is returned as its
// outcome with no writes: the caller's rollback undoes what the decider
// wrote.
func decideAlone(ctx context.Context, tx pgx.Tx, cmds []Command, snaps []Snapshot, replays map[int]Outcome) ([]Outcome, []pendingWrite, int, error) {
	out := make([]Outcome, 1)
	if r, ok := replays[0]; ok {
		out[0] = r
		return out, nil, 0, nil
	}
	d, wrote, err := decideOne(ctx, tx, cmds[0], snaps[0])
	if err != nil {
		out[0].Err = err
		return out, nil, 0, nil
	}
	writes, events := accept(out, nil, 0, 0, cmds[0], snaps[0], d, wrote)
	return out, writes, events, nil
}

// decideGroup decides each command of a group commit that is not a replay,
// in cmds' order. A refusal is its command's outcome unless the decider
// wrote in the shared transaction, which fails the group.
func decideGroup(ctx context.Context, tx pgx.Tx, cmds []Command, snaps []Snapshot, replays map[int]Outcome) (out []Outcome, writes []pendingWrite, events int, err error) {
	out = make([]Outcome, len(cmds))
	writes = make([]pendingWrite, 0, len(cmds)-len(replays))
	for i, c := range cmds {
		if r, ok := replays[i]; ok {
			out[i] = r
			continue
		}
		d, wrote, err := decideOne(ctx, tx, c, snaps[i])
		if err != nil {
			if wrote || tx.Conn().PgConn().TxStatus() != 'T' {
				// A refusal must write nothing, as in Update, but this
				// decider wrote in the shared transaction (or lost it): run
				// everyone on their own.
				return nil, nil, 0, fmt.Errorf("decide %s in a group commit: %w", c.Stream, err)
			}
			out[i].Err = err
			continue
		}
		writes, events = accept(out, writes, events, i, c, snaps[i], d, wrote)
	}
	return out, writes, events, nil
}

// decideOne runs c's decider on snap and reports whether it wrote in tx
// (writeWatch): a command that only writes operational rows still commits.
func decideOne(ctx context.Context, tx pgx.Tx, c Command, snap Snapshot) (Decision, bool, error) {
	wtx := &writeWatch{Tx: tx}
	d, err := c.Decide(callerContext(ctx, c.Context), wtx, snap)
	return d, wtx.wrote, err
}

// accept makes command i's decision d its outcome and, when it writes
// anything, a pending write whose events follow the events so far.
func accept(out []Outcome, writes []pendingWrite, events, i int, c Command, snap Snapshot, d Decision, wrote bool) ([]pendingWrite, int) {
	out[i].Result = Result{StreamVersion: snap.Version, Token: snap.Token, Result: d.Result}
	if len(d.Events) > 0 || (d.State != nil && snap.Version > 0) || c.Opts.IdempotencyKey != "" || wrote {
		writes = append(writes, pendingWrite{index: i, snap: snap, decision: d, first: events})
		events += len(d.Events)
	}
	return writes, events
}

// queueWrites queues every write's head, snapshot, events and idempotency
// key (events of them in all), and the commit's wake-up message, filling in
// each writer's result; it returns the batch, the rows queued (their
// conflict names a failed head check's stream) and about how many bytes the
// batch takes on the wire (groupWrites.queue).
func queueWrites(ctx context.Context, kept *keptParams, cmds []Command, writes []pendingWrite, events int, positions []int64, out []Outcome) (*pgx.Batch, *groupWrites, int, error) {
	g := newGroupWrites(len(writes), events)
	var moved LogMoved // the wake-up's
	var firstID uuid.UUID
	for _, w := range writes {
		c := cmds[w.index]
		d := w.decision
		res := &out[w.index].Result
		st := stateWrite{state: d.State, wakeAt: d.WakeAt}
		if len(d.Events) > 0 {
			at := c.Opts.At
			if !d.At.IsZero() {
				at = d.At
			}
			res.Token = g.head(c.Stream, w.snap.Version, w.snap.Version+int64(len(d.Events)), st)
			ps := positions[w.first : w.first+len(d.Events)]
			id, err := g.append(c.Stream, w.snap.Version, d.Events, c.Opts.Metadata, at, ps)
			if err != nil {
				return nil, nil, 0, err
			}
			if moved.Events == 0 {
				moved.FirstPosition, firstID = ps[0], id
			}
			moved.LastPosition, moved.Events = ps[len(ps)-1], moved.Events+len(ps)
			res.StreamVersion = w.snap.Version + int64(len(d.Events))
			res.FirstPosition = ps[0]
			res.LastPosition = ps[len(ps)-1]
		} else if d.State != nil && w.snap.Version > 0 {
			res.Token = g.head(c.Stream, w.snap.Version, w.snap.Version, st)
		}
		if c.Opts.IdempotencyKey != "" {
			g.key(c.Stream, c.Opts.IdempotencyKey, c.Opts.RequestHash, *res)
		}
	}
	batch := &pgx.Batch{}
	wire := g.queue(batch, kept)
	if moved.Events > 0 {
		if err := queueWakeUp(ctx, batch, moved, firstID); err != nil {
			return nil, nil, 0, err
		}
	}
	return batch, g, wire, nil
}

// writeFailed says what a failed write round trip, which ends with the
// COMMIT, means for the commands. A server's error (a failed check or
// statement, or a failed COMMIT) means nothing was committed: the server
// skips what follows an error, COMMIT included. No answer means the COMMIT
// may or may not have run, unless pgx says nothing was sent (SafeToRetry).
func writeFailed(err error, cmds []Command, g *groupWrites, writes []pendingWrite, out []Outcome) ([]Outcome, error) {
	if c, ok := g.conflict(err); ok {
		return nil, c
	}
	if errors.Is(err, ErrConflict) || isUniqueViolation(err) {
		return nil, conflictOf(err, cmds)
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) && !pgconn.SafeToRetry(err) {
		// No answer to the round trip that carried the COMMIT: it may have
		// committed, so no command may run again; their idempotency keys
		// tell on a retry. Refusals and replays keep their answers: they
		// wrote nothing.
		err = fmt.Errorf("commit of %d commands: %w: %w", len(cmds), ErrCommitUnknown, err)
		for _, w := range writes {
			out[w.index] = Outcome{Err: err}
		}
		return out, err
	}
	return nil, fmt.Errorf("write and commit %d commands: %w", len(cmds), err)
}

// conflictOf is err, a conflict or unique violation of the writes, as a
// *ConflictError (its own when it is one).
func conflictOf(err error, cmds []Command) error {
	if c, ok := errors.AsType[*ConflictError](err); ok {
		return c
	}
	return &ConflictError{Stream: cmds[0].Stream}
}
