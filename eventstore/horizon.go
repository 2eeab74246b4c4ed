package eventstore

import (
	"context"
	"fmt"
	"time"
)

// Horizon is the highest global position at or below which every position
// drawn so far belongs to a transaction that has ended: its events are
// visible to any later statement, or gone for good (a rollback's gap).
//
// It reads the last drawn position, then the appending transactions in
// flight (holders of appendingKey, taken before drawing), and waits until
// those have ended. A transaction that drew a position at or below the last
// one had marked itself first, so it is among them or already over. Only
// appends are waited for, never a long transaction elsewhere, and the wait
// is as long as the slowest of them takes to commit.
func (s *Store) Horizon(ctx context.Context, q Querier) (int64, error) {
	var last int64
	if err := q.QueryRow(ctx, `SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM events_position_seq`).Scan(&last); err != nil {
		return 0, fmt.Errorf("last position: %w", err)
	}
	inFlight, err := appendsInFlight(ctx, q, nil)
	if err != nil {
		return 0, err
	}
	for delay := 200 * time.Microsecond; len(inFlight) > 0; delay = min(2*delay, 10*time.Millisecond) {
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(delay):
		}
		if inFlight, err = appendsInFlight(ctx, q, inFlight); err != nil {
			return 0, err
		}
	}
	return last, nil
}

// appendsInFlight lists the virtual transaction ids of the appends in
// flight (granted appendingKey locks in this database; a bigint advisory key
// shows as classid = high half, objid = low half), but the reader's own: a
// transaction that appends and then reads must not wait for itself. With
// among, only those of among that are still in flight.
func appendsInFlight(ctx context.Context, q Querier, among []string) ([]string, error) {
	var ids []string
	var err error
	if among == nil {
		err = q.QueryRow(ctx, appendsQuery).Scan(&ids)
	} else {
		err = q.QueryRow(ctx, appendsAmongQuery, among).Scan(&ids)
	}
	if err != nil {
		return nil, fmt.Errorf("appends in flight: %w", err)
	}
	return ids, nil
}

// appendsQuery and appendsAmongQuery are appendsInFlight's statements, the
// key written in as constants: with the key as parameters PostgreSQL planned
// the prepared statement afresh on every call (its custom plan looked
// cheaper than the generic one), 110-160 µs of a projector's backend a call
// (docs/benchmarks.md, issue 36, sixth session); without parameters,
// appendsQuery is planned once per connection.
var (
	appendsQuery = fmt.Sprintf(`SELECT coalesce(array_agg(virtualtransaction), '{}') FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND pid <> pg_backend_pid()
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
		AND classid = %d::oid AND objid = %d::oid`, appendingKey>>32, appendingKey&0xffffffff)
	appendsAmongQuery = appendsQuery + ` AND virtualtransaction = ANY($1::text[])`
)
