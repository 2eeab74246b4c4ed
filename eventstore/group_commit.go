package eventstore

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Command is one command of a group commit (UpdateMany): Update's arguments.
type Command struct {
	Stream string
	Opts   UpdateOptions
	Decide DecideFunc
	// Context is the context of the request the command belongs to, nil
	// for none. Its decider, and its run on its own if the batch fails,
	// see that request's values (request id, logger, trace) under the
	// batch's deadline and cancellation (the transaction is everyone's, so
	// one caller going away must not break it); see callerContext.
	Context context.Context
}

// callerContext is ctx, a batch's context, carrying the values of caller,
// one command's own request: Deadline, Done and Err are the batch's, Value
// is the caller's.
func callerContext(ctx, caller context.Context) context.Context {
	if caller == nil {
		return ctx
	}
	return withValuesOf{Context: ctx, values: caller}
}

type withValuesOf struct {
	context.Context
	values context.Context
}

func (c withValuesOf) Value(key any) any { return c.values.Value(key) }

// Outcome is what one command of a group commit came to: Update's answers.
type Outcome struct {
	Result Result
	Err    error
}

// UpdateMany runs commands on distinct streams in one transaction, each as
// Update would (deciders write, if at all, through the transaction's Exec,
// SendBatch or CopyFrom, which it watches; a decider that writes and then
// refuses makes everyone run on their own, so a refusal never commits): lock the streams' rows in a fixed order, decide each command
// against its own snapshot, write every event, snapshot and idempotency
// key, and the commit's one wake-up message, in one round trip and commit once.
//
// A command that is refused (its decider's error, a reused idempotency
// key) or replayed writes nothing and does not touch the others. When the
// transaction itself fails (a conflict, a query error), every command is run
// again on its own through Update, so one command's trouble never fails its
// batch-mates. Streams must be distinct; a repeated stream is run on its own.
//
// A single command takes the group's path too: its two round trips (BEGIN,
// the lock and the positions drawn together; the writes and COMMIT) rather
// than Update's four (BEGIN, lock, draw, writes and COMMIT). Under load a
// lane that finds nothing running starts a batch of whatever is queued, often
// one command (bench-load at 16 clients: a batch in nine), and that batch of
// one cost bin/api more CPU than a batch of eight (issue 36, tenth session).
func (s *Store) UpdateMany(ctx context.Context, cmds []Command) []Outcome {
	out := make([]Outcome, len(cmds))
	if len(cmds) == 0 {
		return out
	}
	cmds = slices.Clone(cmds)
	for i := range cmds {
		cmds[i].Decide = safely(cmds[i].Decide)
	}
	var group, alone []int
	seen := make(map[string]bool, len(cmds))
	for i, c := range cmds {
		if seen[c.Stream] {
			alone = append(alone, i)
			continue
		}
		seen[c.Stream] = true
		group = append(group, i)
	}
	groupCmds := make([]Command, len(group))
	for j, i := range group {
		groupCmds[j] = cmds[i]
	}
	txCtx := ctx
	if len(groupCmds) == 1 {
		// A batch of one is its request's own transaction, as it was through
		// Update: its statements carry that request's values (request id,
		// logger, trace) under the batch's deadline.
		txCtx = callerContext(ctx, groupCmds[0].Context)
	}
	res, err := s.transactGroup(txCtx, groupCmds)
	if err != nil && !errors.Is(err, ErrCommitUnknown) {
		// Nothing was written: each command on its own, as if alone.
		alone = append(group, alone...)
	} else {
		for j, i := range group {
			out[i] = res[j]
		}
	}
	for _, i := range alone {
		out[i].Result, out[i].Err = s.Update(callerContext(ctx, cmds[i].Context), cmds[i].Stream, cmds[i].Opts, cmds[i].Decide)
	}
	return out
}

// replaysQuery finds the answers kept for the idempotency keys $2 on the
// streams $1: one primary-key probe per key, whatever the table's size when
// the plan was made. As a plain join of the table to the unnest, pgx's
// prepared statement got a generic plan while idempotency_keys was small
// (a fresh database), a hash join over a sequential scan, and PostgreSQL
// kept it as the table grew: a scan of every kept key per group commit
// (docs/benchmarks.md, issue 36, third session). The LIMIT keeps the
// lateral subquery from being flattened into that join.
const replaysQuery = `SELECT q.stream_id, q.idempotency_key, k.request_hash, k.result, k.first_position, k.last_position, k.stream_version
	FROM unnest($1::text[], $2::text[]) AS q(stream_id, idempotency_key)
	CROSS JOIN LATERAL (SELECT request_hash, result, first_position, last_position, stream_version FROM idempotency_keys
		WHERE stream_id = q.stream_id AND idempotency_key = q.idempotency_key LIMIT 1) k`

// genericPlans sets a group commit's transaction, in its first round trip,
// to run prepared statements with generic plans and without sequential
// scans until its COMMIT. pgx prepares each statement once per connection,
// and PostgreSQL's default plan_cache_mode plans a prepared statement afresh
// on every execution while that custom plan's estimate is below the
// generic plan's: for the unnest and ANY arrays of a group commit, whose
// custom plans count the arrays' elements and whose generic plans assume
// 10 or 100, that was most executions, at about as much backend time as
// the statement's own run (docs/benchmarks.md, issue 36, sixth session).
// A generic plan is made once per connection, for any arrays: on a small
// streams table (a few hundred accounts) it scanned the whole table for
// the locks and the heads' UPDATE, hence no sequential scans, which leaves
// them the primary keys' probes (TestGroupCommitGenericPlansProbeKeys).
// The group's deciders (the spends' rules: their own statements are key
// lookups and inserts) run under the same settings; Update's transaction,
// whose decider may run anything, keeps the server's. Both run the same
// statements' text, so on one connection they share a prepared
// statement's cached plan, which the settings do not key: a generic plan
// the server chose in Update's transaction (default mode, scans allowed)
// can serve a group later, and the reverse. That costs speed, never
// correctness, and only on a small streams table, where a scan is cheap.
const genericPlans = `SELECT set_config('plan_cache_mode', 'force_generic_plan', true), set_config('enable_seqscan', 'off', true)`

// lockQuery locks the streams $1 in stream order and reads their heads:
// version, token, state version, whether the head is the known one
// ($2, $3: the commands' UpdateOptions.Known) and, only when it is not,
// the saved state, so a command whose caller holds the stream's state at
// its head is sent no state bytes. A head without a token (NULL: written
// before migration 00038) is never the known one.
const lockQuery = `SELECT s.stream_id, s.version, coalesce(s.token, 0), s.state_version,
		coalesce(s.version = k.version AND s.token = k.token, false) AS current,
		CASE WHEN s.version = k.version AND s.token = k.token THEN NULL ELSE ` + snapshotColumnOfS + ` END
	FROM streams s JOIN unnest($1::text[], $2::bigint[], $3::bigint[]) AS k(stream_id, version, token) ON k.stream_id = s.stream_id
	WHERE s.stream_id = ANY($1::text[]) ORDER BY s.stream_id FOR UPDATE OF s`

// lockMany locks the commands' streams in stream order and loads their
// snapshots, finds the commands whose idempotency key answered before
// (replays, or ErrIdempotencyKeyReused), and draws draw positions
// (queueDraw), in one round trip. With a nil tx (a group commit) it begins
// the transaction in that round trip too (Batch.BeginTx, on conn), with
// genericPlans, and returns it, with its error if any: the caller rolls it
// back.
func (s *Store) lockMany(ctx context.Context, conn *pgxpool.Conn, tx pgx.Tx, cmds []Command, draw int) (pgx.Tx, []Snapshot, map[int]Outcome, []int64, error) {
	streams := make([]string, len(cmds))
	knownVersions, knownTokens := make([]int64, len(cmds)), make([]int64, len(cmds))
	keyStreams, keys := make([]string, 0, len(cmds)), make([]string, 0, len(cmds))
	for i, c := range cmds {
		streams[i] = c.Stream
		knownVersions[i], knownTokens[i] = c.Opts.Known.Version, c.Opts.Known.Token
		if c.Opts.IdempotencyKey != "" {
			keyStreams, keys = append(keyStreams, c.Stream), append(keys, c.Opts.IdempotencyKey)
		}
	}
	type head struct {
		version, token, stateVersion int64
		current                      bool
		state                        []byte
	}
	heads := make(map[string]head, len(cmds))
	type kept struct {
		hash string
		res  Result
	}
	found := map[string]kept{}

	batch := &pgx.Batch{}
	if tx == nil { // a group commit's
		batch.BeginTx(pgx.TxOptions{})
		batch.Queue(genericPlans)
	}
	params := paramsOf(conn.Conn())
	batch.Queue(lockQuery, lend(params, 3*32+len(streams)*(4+2*12)+stringsBytes(streams), streams), knownVersions, knownTokens).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var id string
			var h head
			if err := rows.Scan(&id, &h.version, &h.token, &h.stateVersion, &h.current, &h.state); err != nil {
				return err
			}
			heads[id] = h
		}
		return rows.Err()
	})
	if len(keys) > 0 {
		batch.Queue(replaysQuery, lend(params, 2*32+stringsBytes(keyStreams)+stringsBytes(keys), keyStreams), keys).Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var stream, key string
				var k kept
				if err := rows.Scan(&stream, &key, &k.hash, &k.res.Result, &k.res.FirstPosition, &k.res.LastPosition, &k.res.StreamVersion); err != nil {
					return err
				}
				found[stream+"\x00"+key] = k
			}
			return rows.Err()
		})
	}
	var positions []int64
	if draw > 0 {
		queueDraw(batch, draw, &positions)
	}
	lendWriteBuffer(conn.Conn().PgConn(), lockBytes(streams, keyStreams, keys))
	var res pgx.BatchResults
	if tx == nil {
		res = conn.SendBatch(ctx, batch)
		tx = res.Tx()
	} else {
		res = tx.SendBatch(ctx, batch)
	}
	if err := res.Close(); err != nil {
		return tx, nil, nil, nil, fmt.Errorf("lock %d streams: %w", len(cmds), err)
	}

	snaps := make([]Snapshot, len(cmds))
	replays := map[int]Outcome{}
	for i, c := range cmds {
		h := heads[c.Stream]
		snaps[i] = Snapshot{Version: h.version, Token: h.token, State: h.state, StateVersion: h.stateVersion, Current: h.current}
		if err := s.readTail(ctx, tx, c.Stream, &snaps[i]); err != nil {
			return tx, nil, nil, nil, err
		}
		if c.Opts.IdempotencyKey == "" {
			continue
		}
		if k, ok := found[c.Stream+"\x00"+c.Opts.IdempotencyKey]; ok {
			if k.hash != c.Opts.RequestHash {
				replays[i] = Outcome{Err: ErrIdempotencyKeyReused}
			} else {
				k.res.Replayed = true
				replays[i] = Outcome{Result: k.res}
			}
		}
	}
	return tx, snaps, replays, positions, nil
}

// stringsBytes is about how many bytes ss take as an array's elements.
func stringsBytes(ss []string) int {
	n := 0
	for _, s := range ss {
		n += 4 + len(s)
	}
	return n
}

// lockBytes is about how many bytes lockMany's batch takes on the wire for
// streams and keys: the arrays' elements (each with its 4-byte length) and
// the statements' messages.
func lockBytes(streams, keyStreams, keys []string) int {
	n := 1 << 10
	for _, st := range streams {
		n += len(st) + 4 + 2*(8+4)
	}
	for i := range keys {
		n += len(keyStreams[i]) + len(keys[i]) + 2*4
	}
	return n
}

// writeWatch is the transaction a group-commit decider gets: it notes
// whether the decider wrote through it.
type writeWatch struct {
	pgx.Tx
	wrote bool
}

func (w *writeWatch) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	w.wrote = true
	return w.Tx.Exec(ctx, sql, args...)
}

func (w *writeWatch) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	w.wrote = true
	return w.Tx.SendBatch(ctx, b)
}

func (w *writeWatch) CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, src pgx.CopyFromSource) (int64, error) {
	w.wrote = true
	return w.Tx.CopyFrom(ctx, table, columns, src)
}

func (w *writeWatch) Begin(ctx context.Context) (pgx.Tx, error) {
	w.wrote = true // a savepoint: whatever happens inside is a write as far as the batch knows
	return w.Tx.Begin(ctx)
}

// safely turns a decider's panic into its error, so a bug in one command's
// rule fails that command (500), not the process that runs the batch.
func safely(d DecideFunc) DecideFunc {
	return func(ctx context.Context, tx pgx.Tx, snap Snapshot) (dec Decision, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("decider panicked: %v", p)
			}
		}()
		return d(ctx, tx, snap)
	}
}

// drawPositions marks tx as appending, then draws n global positions
// (Horizon relies on that order), in one round trip.
func drawPositions(ctx context.Context, tx pgx.Tx, n int) ([]int64, error) {
	var positions []int64
	draw := &pgx.Batch{}
	queueDraw(draw, n, &positions)
	if err := tx.SendBatch(ctx, draw).Close(); err != nil {
		return nil, fmt.Errorf("draw positions: %w", err)
	}
	return positions, nil
}

// queueDraw queues on batch the drawing of n positions into *positions,
// after the transaction marks itself appending (appendingKey, which Horizon
// waits for).
func queueDraw(batch *pgx.Batch, n int, positions *[]int64) {
	batch.Queue(`SELECT pg_advisory_xact_lock_shared($1)`, appendingKey)
	batch.Queue(`SELECT nextval('events_position_seq') FROM generate_series(1, $1)`, n).Query(func(rows pgx.Rows) error {
		var err error
		*positions, err = pgx.CollectRows(rows, pgx.RowTo[int64])
		return err
	})
}
