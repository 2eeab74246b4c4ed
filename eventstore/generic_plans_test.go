package eventstore

import (
	"context"
	"strings"
	"testing"

	"github.com/a2e-automation/app/internal/testing/testdb"
)

// TestGroupCommitGenericPlansProbeKeys: the group commit's statements run
// with generic plans (genericPlans); made while streams and
// idempotency_keys are empty, as on a fresh database, each plan reaches the
// rows through the primary key, never by scanning the table, so it costs
// the same when the tables have grown.
func TestGroupCommitGenericPlansProbeKeys(t *testing.T) {
	pool := testdb.New(t)
	ctx := context.Background()
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SET plan_cache_mode = force_generic_plan`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, query, execute, table, index string
	}{
		{"locks", lockQuery, `locks('{account-1,account-2}')`, "streams", "streams_pkey"},
		{"heads", headsQuery, `heads('{a,b}', '{1,1}', '{2,2}', '{"{}","{}"}', '{2,2}', '{NULL,NULL}')`, "streams", "streams_pkey"},
		{"replays", replaysQuery, `replays('{account-1,account-2}', '{k1,k2}')`, "idempotency_keys", "idempotency_keys_pkey"},
	} {
		if _, err := conn.Exec(ctx, `PREPARE `+c.name+` AS `+c.query); err != nil {
			t.Fatal(err)
		}
		rows, err := conn.Query(ctx, `EXPLAIN EXECUTE `+c.execute)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, line)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		plan := strings.Join(lines, "\n")
		if strings.Contains(plan, "Seq Scan on "+c.table) || !strings.Contains(plan, "Index Scan on "+c.index) && !strings.Contains(plan, "Index Scan using "+c.index) {
			t.Errorf("%s: the generic plan does not probe %s:\n%s", c.name, c.index, plan)
		}
	}
}
