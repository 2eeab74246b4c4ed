package eventstore

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/testing/testdb"
)

// TestGroupCommitGenericPlansProbeKeys: the group commit's statements run
// with generic plans (genericPlans), made once per connection; made while
// streams and idempotency_keys are empty, as on a fresh database, or hold a
// few hundred rows, each plan reaches the rows through the primary key,
// never by scanning the table, so it costs the same when the tables have
// grown.
func TestGroupCommitGenericPlansProbeKeys(t *testing.T) {
	ctx := context.Background()
	conn := planConn(t)
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
			{"locks", lockQuery, `locks('{account-1,account-2}', '{1,1}', '{5,6}')`, "streams", "streams_pkey"},
			{"heads", headsQuery, `heads('{a,b}', '{1,1}', '{2,2}', '{"{}","{}"}', '{2,2}', '{NULL,NULL}', '{5,6}')`, "streams", "streams_pkey"},
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

// TestReplaysQueryProbesTheKeyIndex: the replay lookup's generic plan,
// made while idempotency_keys is empty (as pgx's prepared statement is on a
// fresh database), probes the primary key per key rather than scanning the
// table, so it costs the same when the table has grown; under the server's
// settings, not genericPlans's (scans allowed).
func TestReplaysQueryProbesTheKeyIndex(t *testing.T) {
	ctx := context.Background()
	conn := planConn(t)
	if _, err := conn.Exec(ctx, `SET plan_cache_mode = force_generic_plan`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `PREPARE replays(text[], text[]) AS `+replaysQuery); err != nil {
		t.Fatal(err)
	}
	text := explain(t, conn, `EXECUTE replays('{account-1,account-2}', '{k1,k2}')`)
	if strings.Contains(text, "Seq Scan on idempotency_keys") || !strings.Contains(text, "Index Scan using idempotency_keys_pkey") {
		t.Fatalf("the replay lookup's generic plan does not probe idempotency_keys' primary key:\n%s", text)
	}
}

// planConn is a connection to a fresh test database, for one test.
func planConn(t *testing.T) *pgxpool.Conn {
	t.Helper()
	conn, err := testdb.New(t).Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Release)
	return conn
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
