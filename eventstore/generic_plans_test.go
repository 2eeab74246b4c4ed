package eventstore

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
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

// TestGroupFunctionsProbeKeys: the group commit's functions
// (eventstore_lock_group and eventstore_write_group, migration 00039) plan
// their statements once per session, as PL/pgSQL caches them, under the
// settings eventstore_lock_group sets (genericPlans's); made while streams
// and idempotency_keys are empty, or hold a few hundred rows, each plan
// reaches the rows through the primary key, never by scanning the table.
// The plans are read from auto_explain, sent to the client as notices.
func TestGroupFunctionsProbeKeys(t *testing.T) {
	ctx := context.Background()
	url := testdb.NewURL(t)
	for _, filled := range []bool{false, true} {
		cfg, err := pgx.ParseConfig(url)
		if err != nil {
			t.Fatal(err)
		}
		var notices []string
		cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { notices = append(notices, n.Message) }
		conn, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if filled {
			if _, err := conn.Exec(ctx, `INSERT INTO streams (stream_id, version, saved, state_version)
				SELECT 'account-' || g, 1, convert_to(repeat('x', 900), 'UTF8'), 1 FROM generate_series(1, 300) g`); err != nil {
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
		if _, err := conn.Exec(ctx, `LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0;
			SET auto_explain.log_nested_statements = on; SET auto_explain.log_level = notice`, pgx.QueryExecModeSimpleProtocol); err != nil {
			t.Fatal(err)
		}
		tx, err := conn.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := tx.Query(ctx, lockGroupQuery, []string{"account-1", "account-2"}, []int64{1, 1}, []int64{5, 6}, []string{"account-1", "account-2"}, []string{"k1", "k2"}, 2, appendingKey)
		if err != nil {
			t.Fatal(err)
		}
		rows.Close()
		if rows.Err() != nil {
			t.Fatal(rows.Err())
		}
		g := newGroupWrites(2, 0)
		g.head("account-1", 1, 1, stateWrite{state: []byte(`{}`)})
		g.head("account-2", 1, 1, stateWrite{state: []byte(`{}`)})
		if !filled {
			g.heads.stream, g.heads.expected, g.heads.version = g.heads.stream[:0], g.heads.expected[:0], g.heads.version[:0]
			g.heads.token, g.heads.stateVersion, g.heads.state, g.heads.wakeAt = g.heads.token[:0], g.heads.stateVersion[:0], g.heads.state[:0], g.heads.wakeAt[:0]
		}
		batch := &pgx.Batch{}
		g.queue(batch, nil)
		if err := tx.SendBatch(ctx, batch).Close(); err != nil {
			t.Fatal(err)
		}
		if err := tx.Rollback(ctx); err != nil {
			t.Fatal(err)
		}
		_ = conn.Close(ctx)
		plans := strings.Join(notices, "\n")
		for _, index := range []string{"streams_pkey", "idempotency_keys_pkey"} {
			if !strings.Contains(plans, "Index Scan on "+index) && !strings.Contains(plans, "Index Scan using "+index) {
				t.Errorf("table filled %v: the functions' plans do not probe %s:\n%s", filled, index, plans)
			}
		}
		for _, scan := range []string{"Seq Scan on streams", "Seq Scan on idempotency_keys"} {
			if strings.Contains(plans, scan) {
				t.Errorf("table filled %v: %q in the functions' plans:\n%s", filled, scan, plans)
			}
		}
	}
}
