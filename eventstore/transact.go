package eventstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
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
// that lock the streams (pgx's Batch.BeginTx), and so does the drawing of one position
// per command (a spend appends one event), so a group commit whose commands
// append no more than that needs no round trip of its own to draw them;
// positions it does not use are gaps in the log, as a rollback's are.
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
// decides each command on its own snapshot, draws the positions, writes
// every head, event and idempotency key and the commit's wake-up message
// in one round trip, and commits.
//
// Its error means nothing was committed, except ErrCommitUnknown, which
// every writing command's outcome then carries; a *ConflictError (a stream
// moved or created meanwhile, a key inserted meanwhile) is worth a retry.
// A refusal is its command's outcome. Alone, a refusal rolls back whatever
// the decider wrote; in a group, a decider that wrote and then refused
// fails the transaction, so that everyone runs again alone.
//
// A group (transactGroup) begins with its first round trip and draws a
// position per command with the locks, before deciding; the rest, if the
// decisions need more, after.
func (s *Store) transact(ctx context.Context, cmds []Command, decide decideStep, group bool) ([]Outcome, error) {
	var tx pgx.Tx // a group's begins in lockMany's round trip
	predraw := len(cmds)
	if !group {
		var err error
		if tx, err = s.pool.Begin(ctx); err != nil {
			return nil, fmt.Errorf("begin: %w", err)
		}
		predraw = 0
	}
	tx, snaps, replays, positions, err := s.lockMany(ctx, tx, cmds, predraw)
	if tx != nil {
		// Rolls back what did not commit and hands the connection back.
		defer func() { _ = tx.Rollback(ctx) }()
	}
	if err != nil {
		return nil, err
	}
	out, writes, events, err := decide(ctx, tx, cmds, snaps, replays)
	if err != nil || len(writes) == 0 {
		return out, err // nothing to commit: refusals and replays only, or a refusal alone
	}
	if events > len(positions) {
		more, err := drawPositions(ctx, tx, events-len(positions))
		if err != nil {
			return nil, err
		}
		positions = append(positions, more...)
	}
	batch, err := queueWrites(ctx, cmds, writes, positions, out)
	if err != nil {
		return nil, err
	}
	// Heads, snapshots, events, the wake-up message and idempotency keys: one
	// round trip.
	if err := tx.SendBatch(ctx, batch).Close(); err != nil {
		if errors.Is(err, ErrConflict) || isUniqueViolation(err) {
			return nil, conflictOf(err, cmds)
		}
		return nil, fmt.Errorf("write batch: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return commitFailed(err, cmds, writes, out)
	}
	return out, nil
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
	out[i].Result = Result{StreamVersion: snap.Version, Result: d.Result}
	if len(d.Events) > 0 || (d.State != nil && snap.Version > 0) || c.Opts.IdempotencyKey != "" || wrote {
		writes = append(writes, pendingWrite{index: i, snap: snap, decision: d, first: events})
		events += len(d.Events)
	}
	return writes, events
}

// queueWrites queues every write's head, snapshot, events and idempotency
// key, and the commit's wake-up message, filling in each writer's result.
func queueWrites(ctx context.Context, cmds []Command, writes []pendingWrite, positions []int64, out []Outcome) (*pgx.Batch, error) {
	var g groupWrites
	var records []Record
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
			g.head(c.Stream, w.snap.Version, w.snap.Version+int64(len(d.Events)), st)
			recs, err := g.append(c.Stream, w.snap.Version, d.Events, c.Opts.Metadata, at, positions[w.first:w.first+len(d.Events)])
			if err != nil {
				return nil, err
			}
			records = append(records, recs...)
			res.StreamVersion = recs[len(recs)-1].StreamVersion
			res.FirstPosition = recs[0].GlobalPosition
			res.LastPosition = recs[len(recs)-1].GlobalPosition
		} else if d.State != nil && w.snap.Version > 0 {
			g.head(c.Stream, w.snap.Version, w.snap.Version, st)
		}
		if c.Opts.IdempotencyKey != "" {
			g.key(c.Stream, c.Opts.IdempotencyKey, c.Opts.RequestHash, *res)
		}
	}
	batch := &pgx.Batch{}
	g.queue(batch)
	if len(records) > 0 {
		if err := queueWakeUp(ctx, batch, records); err != nil {
			return nil, err
		}
	}
	return batch, nil
}

// commitFailed says what a failed COMMIT means for the commands.
func commitFailed(err error, cmds []Command, writes []pendingWrite, out []Outcome) ([]Outcome, error) {
	if isUniqueViolation(err) {
		return nil, conflictOf(err, cmds)
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		// No answer to COMMIT: it may have committed, so no command may run
		// again; their idempotency keys tell on a retry. Refusals and
		// replays keep their answers: they wrote nothing.
		err = fmt.Errorf("commit of %d commands: %w: %w", len(cmds), ErrCommitUnknown, err)
		for _, w := range writes {
			out[w.index] = Outcome{Err: err}
		}
		return out, err
	}
	return nil, fmt.Errorf("commit of %d commands: %w", len(cmds), err)
}

// conflictOf is err, a conflict or unique violation of the writes, as a
// *ConflictError (its own when it is one).
func conflictOf(err error, cmds []Command) error {
	if c, ok := errors.AsType[*ConflictError](err); ok {
		return c
	}
	return &ConflictError{Stream: cmds[0].Stream}
}
