package eventstore

import (
	"context"
	"strings"
	"testing"

	"github.com/a2e-automation/app/internal/testing/testdb"
)

// TestReplaysQueryProbesTheKeyIndex: the replay lookup's generic plan,
// made while idempotency_keys is empty (as pgx's prepared statement is on a
// fresh database), probes the primary key per key rather than scanning the
// table, so it costs the same when the table has grown.
func TestReplaysQueryProbesTheKeyIndex(t *testing.T) {
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
	if _, err := conn.Exec(ctx, `PREPARE replays(text[], text[]) AS `+replaysQuery); err != nil {
		t.Fatal(err)
	}
	text := explain(t, conn, `EXECUTE replays('{account-1,account-2}', '{k1,k2}')`)
	if strings.Contains(text, "Seq Scan on idempotency_keys") || !strings.Contains(text, "Index Scan using idempotency_keys_pkey") {
		t.Fatalf("the replay lookup's generic plan does not probe idempotency_keys' primary key:\n%s", text)
	}
}
