package eventstore

import (
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// groupWrites collects a group commit's rows and queues them as one
// statement per table (arrays unnested by the server), so a batch of 64
// spends costs the same few statements as a batch of one: the statements'
// parsing, planning and encoding are paid once, not per command.
type groupWrites struct {
	// heads of existing streams: moved from expected to version, with
	// their new tokens and states
	heads struct {
		stream                                 []string
		expected, version, token, stateVersion []int64
		state                                  [][]byte // nil: the saved state stays
		wakeAt                                 []*time.Time
	}
	// streams that do not exist yet
	created struct {
		stream                       []string
		version, token, stateVersion []int64
		state                        [][]byte // nil: none
		wakeAt                       []*time.Time
	}
	events struct {
		position, version []int64
		id                [][16]byte // not uuid.UUID: its driver.Valuer would format and parse each
		stream, typ       []string
		schema            []int32
		data              [][]byte // text[] elements: the decision's bytes, not copied into strings
		metadata          []string
		at                []time.Time
	}
	keys struct {
		stream, key, hash          []string
		result                     [][]byte
		first, last, streamVersion []int64
	}
}

// newGroupWrites returns a groupWrites whose columns hold, without growing,
// the heads and idempotency keys of writes commands and events events
// (a created stream's columns grow: a spend's stream exists).
func newGroupWrites(writes, events int) *groupWrites {
	g := &groupWrites{}
	h := &g.heads
	h.stream, h.state, h.wakeAt = make([]string, 0, writes), make([][]byte, 0, writes), make([]*time.Time, 0, writes)
	h.expected, h.version, h.token, h.stateVersion = make([]int64, 0, writes), make([]int64, 0, writes), make([]int64, 0, writes), make([]int64, 0, writes)
	e := &g.events
	e.position, e.version, e.id = make([]int64, 0, events), make([]int64, 0, events), make([][16]byte, 0, events)
	e.stream, e.typ, e.metadata = make([]string, 0, events), make([]string, 0, events), make([]string, 0, events)
	e.schema, e.data, e.at = make([]int32, 0, events), make([][]byte, 0, events), make([]time.Time, 0, events)
	k := &g.keys
	k.stream, k.key, k.hash, k.result = make([]string, 0, writes), make([]string, 0, writes), make([]string, 0, writes), make([][]byte, 0, writes)
	k.first, k.last, k.streamVersion = make([]int64, 0, writes), make([]int64, 0, writes), make([]int64, 0, writes)
	return g
}

// head records stream's move from expected to version with st, under a
// fresh token, which it returns.
func (g *groupWrites) head(stream string, expected, version int64, st stateWrite) int64 {
	token, stateVersion := newToken(), version // a head given no state keeps its own (headsQuery)
	if expected == 0 {
		c := &g.created
		c.stream, c.version, c.token, c.stateVersion = append(c.stream, stream), append(c.version, version), append(c.token, token), append(c.stateVersion, stateVersion)
		c.state, c.wakeAt = append(c.state, st.state), append(c.wakeAt, st.wakeAt)
		return token
	}
	h := &g.heads
	h.stream, h.expected, h.version, h.token = append(h.stream, stream), append(h.expected, expected), append(h.version, version), append(h.token, token)
	h.stateVersion, h.state, h.wakeAt = append(h.stateVersion, stateVersion), append(h.state, st.state), append(h.wakeAt, st.wakeAt)
	return token
}

// append records events appended to stream after version expected, at
// positions, and returns the first one's id.
func (g *groupWrites) append(stream string, expected int64, events []NewEvent, md Metadata, at time.Time, positions []int64) (uuid.UUID, error) {
	if at.IsZero() {
		at = time.Now()
	}
	at = at.UTC()
	mdJSON, err := encodeMetadata(md)
	if err != nil {
		return uuid.UUID{}, err
	}
	var first uuid.UUID
	e := &g.events
	for i, ev := range events {
		id := uuid.New()
		if i == 0 {
			first = id
		}
		data := ev.Data
		if data == nil {
			data = []byte{} // '' as before (an error: not JSON), not NULL
		}
		e.position, e.id, e.stream = append(e.position, positions[i]), append(e.id, [16]byte(id)), append(e.stream, stream)
		e.version, e.typ, e.schema = append(e.version, expected+int64(i)+1), append(e.typ, ev.Type), append(e.schema, int32(ev.schemaVersion()))
		e.data, e.metadata, e.at = append(e.data, data), append(e.metadata, mdJSON), append(e.at, at)
	}
	return first, nil
}

// key records a command's idempotency key with its answer.
func (g *groupWrites) key(stream, key, hash string, res Result) {
	k := &g.keys
	k.stream, k.key, k.hash = append(k.stream, stream), append(k.key, key), append(k.hash, hash)
	k.result, k.first, k.last = append(k.result, res.Result), append(k.first, res.FirstPosition), append(k.last, res.LastPosition)
	k.streamVersion = append(k.streamVersion, res.StreamVersion)
}

// headsBytes, createdBytes, eventsBytes and keysBytes are about how many
// bytes each statement's parameters take: the arrays' elements, each with
// its 4-byte length, and their headers.
func (g *groupWrites) headsBytes() int {
	n := 7 * 32
	for i := range g.heads.stream {
		n += len(g.heads.stream[i]) + len(g.heads.state[i]) + 7*4 + 6*8
	}
	return n
}

func (g *groupWrites) createdBytes() int {
	n := 6 * 32
	for i := range g.created.stream {
		n += len(g.created.stream[i]) + len(g.created.state[i]) + 6*4 + 5*8
	}
	return n
}

func (g *groupWrites) eventsBytes() int {
	n := 9 * 32
	e := &g.events
	for i := range e.position {
		n += len(e.stream[i]) + len(e.typ[i]) + len(e.data[i]) + len(e.metadata[i]) + 9*4 + 16 + 4*8
	}
	return n
}

func (g *groupWrites) keysBytes() int {
	n := 7 * 32
	k := &g.keys
	for i := range k.stream {
		n += len(k.stream[i]) + len(k.key[i]) + len(k.hash[i]) + len(k.result[i]) + 7*4 + 3*8
	}
	return n
}

// queue queues the collected writes on batch: heads first (a head that
// did not move exactly as expected fails the batch on the server, with
// eventstore_expect_rows's error: see conflict), then events, then
// idempotency keys. The check is the server's so that a COMMIT queued after
// these statements never commits a batch whose heads did not move.
// Each statement's first parameter is lent kept's buffer (lend); with a nil
// kept, pgx's own. The [][]byte and []*time.Time columns go as pgtype.FlatArray, pgx's own
// array of them: as plain slices pgx encodes them through reflection (its
// anySliceArrayReflect), which it spares []string and []int64.
// It returns about how many bytes the batch takes on the wire: the
// statements' parameters, and 2 kB for the statements' messages, the
// wake-up message and the COMMIT (the write buffer lent for it).
func (g *groupWrites) queue(batch *pgx.Batch, kept *keptParams) (wire int) {
	wire = 2 << 10
	if h := g.heads; len(h.stream) > 0 {
		n := g.headsBytes()
		wire += n
		batch.Queue(headsQuery,
			lend(kept, n, h.stream), h.expected, h.version, pgtype.FlatArray[[]byte](h.state), h.stateVersion, pgtype.FlatArray[*time.Time](h.wakeAt), h.token)
	}
	if c := g.created; len(c.stream) > 0 {
		n := g.createdBytes()
		wire += n
		batch.Queue(`WITH created AS (INSERT INTO streams (stream_id, version, saved, state_version, wake_at, token)
			SELECT stream_id, version, state, state_version, wake_at, token
			FROM unnest($1::text[], $2::bigint[], $3::bytea[], $4::bigint[], $5::timestamptz[], $6::bigint[])
				AS u(stream_id, version, state, state_version, wake_at, token)
			ON CONFLICT (stream_id) DO NOTHING
			RETURNING 1)
			SELECT eventstore_expect_rows(count(*), cardinality($1::text[]), 'created') FROM created`,
			lend(kept, n, c.stream), c.version, pgtype.FlatArray[[]byte](c.state), c.stateVersion, pgtype.FlatArray[*time.Time](c.wakeAt), c.token)
	}
	if e := g.events; len(e.position) > 0 {
		n := g.eventsBytes()
		wire += n
		batch.Queue(`INSERT INTO events (global_position, event_id, stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at)
			SELECT p, id, s, v, t, sv, d::jsonb, m::jsonb, at
			FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::bigint[], $5::text[], $6::int[], $7::text[], $8::text[], $9::timestamptz[])
				AS u(p, id, s, v, t, sv, d, m, at)`,
			lend(kept, n, e.position), e.id, e.stream, e.version, e.typ, e.schema, pgtype.FlatArray[[]byte](e.data), e.metadata, e.at)
	}
	if k := g.keys; len(k.stream) > 0 {
		n := g.keysBytes()
		wire += n
		batch.Queue(`INSERT INTO idempotency_keys
				(stream_id, idempotency_key, request_hash, result, first_position, last_position, stream_version)
			SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bytea[], $5::bigint[], $6::bigint[], $7::bigint[])`,
			lend(kept, n, k.stream), k.key, k.hash, pgtype.FlatArray[[]byte](k.result), k.first, k.last, k.streamVersion)
	}
	return wire
}

// headsQuery moves the heads $1 from $2 to $3 under their new tokens $7,
// with their states, written to saved (the others cleared: see
// snapshotColumn); a head given no state ($4 NULL) keeps its saved state,
// in whichever column, with its state version. The ANY filter,
// redundant with the join, is what gives its generic plan (see
// genericPlans) an index scan of streams' primary key; joined to the
// unnest alone, the plan scans the whole table.
const headsQuery = `WITH moved AS (UPDATE streams s SET version = u.version, token = u.token,
		saved = CASE WHEN u.state IS NULL THEN s.saved ELSE u.state END,
		snapshot = CASE WHEN u.state IS NULL THEN s.snapshot END,
		state = CASE WHEN u.state IS NULL THEN s.state END,
		state_version = CASE WHEN u.state IS NULL THEN s.state_version ELSE u.state_version END,
		wake_at = u.wake_at, updated_at = now()
	FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bytea[], $5::bigint[], $6::timestamptz[], $7::bigint[])
		AS u(stream_id, expected, version, state, state_version, wake_at, token)
	WHERE s.stream_id = ANY($1::text[]) AND s.stream_id = u.stream_id AND s.version = u.expected
	RETURNING 1)
	SELECT eventstore_expect_rows(count(*), cardinality($1::text[]), 'heads') FROM moved`

// expectRowsCode is the SQLSTATE of eventstore_expect_rows (migration
// 00035): a statement of queue did not move every head it meant to.
const expectRowsCode = "ES409"

// conflict is the *ConflictError for err, the failure of a batch queue
// made, when err is eventstore_expect_rows's: on the first stream of the
// statement that raised it (its constraint name, heads or created).
func (g *groupWrites) conflict(err error) (*ConflictError, bool) {
	pgErr, ok := errors.AsType[*pgconn.PgError](err)
	if !ok || pgErr.Code != expectRowsCode {
		return nil, false
	}
	if pgErr.ConstraintName == "created" && len(g.created.stream) > 0 {
		return &ConflictError{Stream: g.created.stream[0]}, true
	}
	if len(g.heads.stream) > 0 {
		return &ConflictError{Stream: g.heads.stream[0], Expected: g.heads.expected[0]}, true
	}
	return &ConflictError{Stream: pgErr.ConstraintName}, true
}
