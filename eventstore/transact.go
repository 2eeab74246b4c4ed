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

// transact runs commands on distinct streams in one transaction: Update's
// (one command, alone) and UpdateMany's (a group commit). It locks the
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
func (s *Store) transact(ctx context.Context, cmds []Command, alone bool) ([]Outcome, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()

	snaps, replays, err := s.lockMany(ctx, tx, cmds)
	if err != nil {
		return nil, err
	}
	out, writes, events, err := decideAll(ctx, tx, cmds, snaps, replays, alone)
	if err != nil || len(writes) == 0 {
		return out, err // nothing to commit: refusals and replays only, or a refusal alone
	}
	var positions []int64
	if events > 0 {
		if positions, err = drawPositions(ctx, tx, events); err != nil {
			return nil, err
		}
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

// decideAll decides each command that is not a replay on its own snapshot,
// in cmds' order, and returns every command's outcome so far, the writes of
// those that write, and how many events they append. Alone, a refusal is
// returned as the outcome with no writes (the caller's rollback undoes what
// the decider wrote); in a group, a refusal is its command's outcome unless
// the decider wrote in the shared transaction, which fails the group.
func decideAll(ctx context.Context, tx pgx.Tx, cmds []Command, snaps []Snapshot, replays map[int]Outcome, alone bool) (out []Outcome, writes []pendingWrite, events int, err error) {
	out = make([]Outcome, len(cmds))
	for i, c := range cmds {
		if r, ok := replays[i]; ok {
			out[i] = r
			continue
		}
		wtx := &writeWatch{Tx: tx}
		d, err := c.Decide(callerContext(ctx, c.Context), wtx, snaps[i])
		if err != nil {
			if alone {
				out[i].Err = err
				return out, nil, 0, nil
			}
			if wtx.wrote || tx.Conn().PgConn().TxStatus() != 'T' {
				// A refusal must write nothing, as in Update, but this
				// decider wrote in the shared transaction (or lost it): run
				// everyone on their own.
				return nil, nil, 0, fmt.Errorf("decide %s in a group commit: %w", c.Stream, err)
			}
			out[i].Err = err
			continue
		}
		out[i].Result = Result{StreamVersion: snaps[i].Version, Result: d.Result}
		if len(d.Events) > 0 || (d.State != nil && snaps[i].Version > 0) || c.Opts.IdempotencyKey != "" || wtx.wrote {
			writes = append(writes, pendingWrite{index: i, snap: snaps[i], decision: d, first: events})
			events += len(d.Events)
		}
	}
	return out, writes, events, nil
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
