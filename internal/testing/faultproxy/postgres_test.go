package faultproxy_test

import (
	"context"
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/a2e-automation/app/internal/testing/faultproxy"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// cutTable makes a fresh database with a table cut and returns a direct
// connection to it, a proxy in Postgres mode in front of it, and the URL
// through the proxy.
func cutTable(t *testing.T) (*pgx.Conn, *faultproxy.Proxy, string) {
	t.Helper()
	direct := testdb.NewURL(t)
	ctx := context.Background()
	db, err := pgx.Connect(ctx, direct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close(context.Background()) })
	if _, err := db.Exec(ctx, `CREATE TABLE cut (v text)`); err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(direct)
	if err != nil {
		t.Fatal(err)
	}
	proxy := faultproxy.Start(t, u.Host)
	proxy.Set(faultproxy.Postgres)
	u.Host = proxy.Addr()
	q := u.Query()
	q.Set("sslmode", "disable") // the proxy reads plaintext only
	u.RawQuery = q.Encode()
	return db, proxy, u.String()
}

// A cut COMMIT in front of a real PostgreSQL: only the marked transaction is
// cut, its client gets no answer (a connection error, not a server error),
// and the server has committed it (deliver) or rolled it back (not).
func TestCutCommit(t *testing.T) {
	ctx := context.Background()
	// Tx.Commit's simple-query COMMIT, and the event store's shape: the
	// COMMIT as the last statement of a pipelined batch (extended protocol,
	// a statement prepared once per connection and bound after that).
	shapes := map[string]func(conn *pgx.Conn, v string) error{
		"simple": func(conn *pgx.Conn, v string) error {
			tx, err := conn.Begin(ctx)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO cut (v) VALUES ($1)`, v); err != nil {
				return err
			}
			return tx.Commit(ctx)
		},
		"pipelined": func(conn *pgx.Conn, v string) error {
			if _, err := conn.Exec(ctx, `BEGIN`); err != nil {
				return err
			}
			b := &pgx.Batch{}
			b.Queue(`INSERT INTO cut (v) VALUES ($1)`, v)
			b.Queue(`COMMIT`)
			return conn.SendBatch(ctx, b).Close()
		},
	}
	for shape, insert := range shapes {
		t.Run(shape, func(t *testing.T) { cutCommit(t, insert) })
	}
}

func cutCommit(t *testing.T, insert func(conn *pgx.Conn, v string) error) {
	ctx := context.Background()
	db, proxy, via := cutTable(t)
	stored := func(v string) int {
		var n int
		if err := db.QueryRow(ctx, `SELECT count(*) FROM cut WHERE v = $1`, v).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, deliver := range []bool{true, false} {
		marker := "marked-" + map[bool]string{true: "delivered", false: "lost"}[deliver]
		bystander, err := pgx.Connect(ctx, via)
		if err != nil {
			t.Fatal(err)
		}
		victim, err := pgx.Connect(ctx, via)
		if err != nil {
			t.Fatal(err)
		}
		// The victim's statements are prepared before the cut is armed, so
		// its marked COMMIT is a Bind of a statement parsed earlier.
		if err := insert(victim, "warm-up"); err != nil {
			t.Fatal(err)
		}
		cut := proxy.CutCommit(marker, deliver)
		if err := insert(bystander, "unmarked"); err != nil {
			t.Fatalf("deliver=%v: a transaction without the marker: %v", deliver, err)
		}
		err = insert(victim, marker)
		var pgErr *pgconn.PgError
		if err == nil || errors.As(err, &pgErr) {
			t.Fatalf("deliver=%v: the marked COMMIT answered %v, want no answer", deliver, err)
		}
		select {
		case <-cut:
		case <-time.After(5 * time.Second):
			t.Fatalf("deliver=%v: the cut was not reported", deliver)
		}
		committed := 0
		if deliver {
			committed = 1
		}
		if got := stored(marker); got != committed {
			t.Fatalf("deliver=%v: %d rows committed, want %d", deliver, got, committed)
		}
		// Disarmed once made: the same marker commits again.
		if err := insert(bystander, marker); err != nil || stored(marker) != committed+1 {
			t.Fatalf("deliver=%v: after the cut: %v, %d rows", deliver, err, stored(marker))
		}
		_ = bystander.Close(ctx)
		_ = victim.Close(ctx)
	}
}

// A marker sent outside a transaction (an autocommit read by the key) does
// not mark the connection's next transaction: only a transaction that sends
// the marker between its BEGIN and its COMMIT is cut.
func TestCutCommitMarkerOutsideATransaction(t *testing.T) {
	ctx := context.Background()
	_, proxy, via := cutTable(t)
	conn, err := pgx.Connect(ctx, via)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })

	const marker = "marked-elsewhere"
	cut := proxy.CutCommit(marker, true)
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM cut WHERE v = $1`, marker).Scan(&n); err != nil {
		t.Fatal(err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO cut (v) VALUES ($1)`, "unmarked"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatalf("a transaction without the marker, after a read with it, was cut: %v", err)
	}
	select {
	case <-cut:
		t.Fatal("the cut was made on an unmarked transaction")
	default:
	}
	// Still armed: a transaction that sends the marker is cut.
	tx, err = conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO cut (v) VALUES ($1)`, marker); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err == nil {
		t.Fatal("the marked COMMIT answered, want no answer")
	}
	select {
	case <-cut:
	case <-time.After(5 * time.Second):
		t.Fatal("the cut was not reported")
	}
}
