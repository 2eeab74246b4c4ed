package eventstore

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Find selects events of one type in one stream, newest first, for the
// readers that answer from the log itself rather than from a read table (the
// desktop API's listing read-back). Type and DataField are written into the
// statement as literals so that PostgreSQL matches the partial and expression
// indexes on the events table (migrations 00013); they must be identifiers.
type Find struct {
	Stream string
	Type   string // the event type, required
	// BeforeVersion keeps events below this stream version; 0: no bound.
	BeforeVersion int64
	// Limit is the most events returned; 0: all.
	Limit int
	// DataField and DataValue keep the events whose data has DataField (a
	// top-level key) equal to DataValue; DataField "" keeps all.
	DataField, DataValue string
	// IdempotencyKey keeps the events appended with it as
	// Metadata.IdempotencyKey, and those of the command stored under
	// StoredKey in the idempotency keys while they are kept (events
	// appended before the key was written into their metadata).
	IdempotencyKey, StoredKey string
}

var identifier = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// FindIn returns the events f selects through q (a pool, connection or
// transaction), newest first.
func (s *Store) FindIn(ctx context.Context, q Querier, f Find) ([]Record, error) {
	if !identifier.MatchString(f.Type) || (f.DataField != "" && !identifier.MatchString(f.DataField)) {
		return nil, fmt.Errorf("find events: type %q and data field %q must be identifiers", f.Type, f.DataField)
	}
	typ := "'" + f.Type + "'"
	args := []any{f.Stream}
	arg := func(v any) string { args = append(args, v); return "$" + strconv.Itoa(len(args)) }
	var where []string
	if f.DataField != "" {
		where = append(where, "data->>'"+f.DataField+"' = "+arg(f.DataValue))
	}
	from := "events"
	if f.IdempotencyKey != "" {
		// Its own statement, so the planner always sees the key's index.
		from = `(
			SELECT * FROM events
			WHERE event_type = ` + typ + ` AND stream_id = $1
				AND metadata ? 'idempotencyKey' AND metadata->>'idempotencyKey' = ` + arg(f.IdempotencyKey) + `
			UNION
			SELECT e.* FROM idempotency_keys k JOIN events e
				ON e.global_position BETWEEN k.first_position AND k.last_position AND e.stream_id = k.stream_id
			WHERE k.stream_id = $1 AND k.idempotency_key = ` + arg(f.StoredKey) + ` AND e.event_type = ` + typ + `
		) found`
	}
	where = append(where, "event_type = "+typ, "stream_id = $1")
	if f.BeforeVersion > 0 {
		where = append(where, "stream_version < "+arg(f.BeforeVersion))
	}
	sql := `SELECT ` + recordColumns + ` FROM ` + from + ` WHERE ` + strings.Join(where, " AND ") + ` ORDER BY stream_version DESC`
	if f.Limit > 0 {
		sql += ` LIMIT ` + arg(f.Limit)
	}
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("find %s events in %s: %w", f.Type, f.Stream, err)
	}
	return s.scanRecords(rows)
}
