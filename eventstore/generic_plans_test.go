package eventstore

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/internal/testing/testdb"
)

// TestGroupCommitGenericPlansProbeKeys: the group commit's statements run
// with generic plans (genericPlans), made once per connection; made while
// streams and idempotency_keys are empty, as on a fresh database, or hold a
// few hundred rows, each plan reaches the rows through the primary key,
// never by scanning the table, so it costs the same when the tables have
// grown.
func TestGroupCommitGenericPlansProbeKeys(t *testing.T) {
	pool := testdb.New(t)
	ctx := context.Background()
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	for _, filled := range []bool{false, true} {
		if filled {
			if _, err := conn.Exec(ctx, `INSERT INTO streams (stream_id, version, state, state_version)
				SELECT 'account-' || g, 1, jsonb_build_object('pad', repeat('x', 900)), 1 FROM generate_series(1, 300) g`); err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Exec(ctx, `INSERT INTO idempotency_keys (stream_id, idempotency_key, request_hash, stream_version)
				SELECT 'account-' || g, 'k' || g, 'h', 1 FROM generate_series(1, 300) g`); err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Exec(ctx, `ANALYZE streams, idempotency_keys`); err != nil {
				t.Fatal(err)
			}
		}
		tx, err := conn.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, genericPlans); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name, query, execute, table, index string
		}{
			{"locks", lockQuery, `locks('{account-1,account-2}')`, "streams", "streams_pkey"},
			{"heads", headsQuery, `heads('{a,b}', '{1,1}', '{2,2}', '{"{}","{}"}', '{2,2}', '{NULL,NULL}')`, "streams", "streams_pkey"},
			{"replays", replaysQuery, `replays('{account-1,account-2}', '{k1,k2}')`, "idempotency_keys", "idempotency_keys_pkey"},
		} {
			if _, err := tx.Exec(ctx, `PREPARE `+c.name+` AS `+c.query); err != nil {
				t.Fatal(err)
			}
			plan := explain(t, tx, `EXECUTE `+c.execute)
			if strings.Contains(plan, "Seq Scan on "+c.table) || !strings.Contains(plan, "Index Scan on "+c.index) && !strings.Contains(plan, "Index Scan using "+c.index) {
				t.Errorf("%s, table filled %v: the generic plan does not probe %s:\n%s", c.name, filled, c.index, plan)
			}
		}
		if err := tx.Rollback(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, `DEALLOCATE locks; DEALLOCATE heads; DEALLOCATE replays`, pgx.QueryExecModeSimpleProtocol); err != nil {
			t.Fatal(err)
		}
	}
}

// explain is PostgreSQL's plan for stmt on q, one line per node.
func explain(t *testing.T, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, stmt string) string {
	t.Helper()
	rows, err := q.Query(context.Background(), `EXPLAIN `+stmt)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}
