package eventstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	wsql "github.com/ThreeDotsLabs/watermill-sql/v4/pkg/sql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Execer runs a statement on a pool, a connection or a transaction.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// PruneIdempotencyKeys deletes up to limit idempotency keys starting with
// prefix (such as "desktop:") recorded before before. A request retried
// with a pruned key is a new request.
func PruneIdempotencyKeys(ctx context.Context, q Execer, prefix string, before time.Time, limit int) (int64, error) {
	tag, err := q.Exec(ctx, `DELETE FROM idempotency_keys WHERE ctid = ANY(ARRAY(
		SELECT ctid FROM idempotency_keys WHERE created_at < $1 AND starts_with(idempotency_key, $2) LIMIT $3))`, before, prefix, limit)
	if err != nil {
		return 0, fmt.Errorf("prune idempotency keys %s*: %w", prefix, err)
	}
	return tag.RowsAffected(), nil
}

// PruneDelivered deletes up to limit rows of the outbox (the watermill
// table of Topic) that every consumer group in groups has acknowledged.
// It deletes nothing while one of the groups has never acknowledged
// anything, or before the tables exist. watermill-sql consumes in
// (transaction id, offset) order, so a row is delivered to a group when
// that pair is at or below the group's acknowledged pair.
func PruneDelivered(ctx context.Context, q Execer, groups []string, limit int) (int64, error) {
	if len(groups) == 0 {
		return 0, nil
	}
	messages := wsql.DefaultPostgreSQLSchema{}.MessagesTable(Topic)
	offsets := wsql.DefaultPostgreSQLOffsetsAdapter{}.MessagesOffsetsTable(Topic)
	var n int
	var tx string
	var off *int64
	err := q.QueryRow(ctx, `SELECT count(*) OVER (), last_processed_transaction_id::text, offset_acked FROM `+offsets+`
		WHERE consumer_group = ANY($1) ORDER BY last_processed_transaction_id, offset_acked LIMIT 1`, groups).Scan(&n, &tx, &off)
	var pgErr *pgconn.PgError
	switch {
	case errors.Is(err, pgx.ErrNoRows), errors.As(err, &pgErr) && pgErr.Code == "42P01": // no group yet, no table yet
		return 0, nil
	case err != nil:
		return 0, fmt.Errorf("delivered floor: %w", err)
	case n < len(groups) || off == nil:
		return 0, nil
	}
	tag, err := q.Exec(ctx, `DELETE FROM `+messages+` WHERE ctid = ANY(ARRAY(
		SELECT ctid FROM `+messages+` WHERE (transaction_id, "offset") <= ($1::text::xid8, $2::bigint) LIMIT $3))`, tx, *off, limit)
	if err != nil {
		return 0, fmt.Errorf("prune delivered outbox rows: %w", err)
	}
	return tag.RowsAffected(), nil
}
