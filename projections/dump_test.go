package projections

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DumpReadTables returns every row of the read tables, in a stable order:
// the tests compare the live tables with a rebuild's by it.
func DumpReadTables(t *testing.T, pool *pgxpool.Pool) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for table, order := range map[string]string{"profiles": "account_id", "usage_statistics": "account_id, day", "transactions": "payment_id", "usage_daily": "account_id, day", "usage_daily_keys": "account_id, key_id, day"} {
		rows, err := pool.Query(context.Background(), `SELECT row_to_json(x)::text FROM `+table+` x ORDER BY `+order)
		if err != nil {
			t.Fatal(err)
		}
		out[table], err = pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}
