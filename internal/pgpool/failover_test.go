package pgpool_test

// What a failover does to a pool (issue 32), on a real PostgreSQL: the
// connections to the lost primary die, and a connection may find its server
// read-only (25006). The pool must answer "unavailable" meanwhile and reconnect
// by itself; test/ha runs the same through a real pg_auto_failover failover.

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/pgpool"
	"github.com/a2e-automation/app/internal/testing/faultproxy"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

func open(t *testing.T, dbURL string, size int32) *pgxpool.Pool {
	t.Helper()
	pool, err := pgpool.New(context.Background(), dbURL, pgpool.Options{MaxConns: size})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// A write on a read-only server (the demoted primary's 25006) is
// "unavailable", and the pool drops that connection: the next write gets a
// new one instead of the same refusal forever.
func TestReadOnlyConnectionIsUnavailableAndDropped(t *testing.T) {
	ctx := context.Background()
	pool := open(t, testdb.NewURL(t), 1)
	if _, err := pool.Exec(ctx, `CREATE TABLE spends (n int)`); err != nil {
		t.Fatal(err)
	}
	var before uint32
	c, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	before = c.Conn().PgConn().PID()
	// What a standby answers every write with: the session is read-only.
	if _, err := c.Exec(ctx, `SET default_transaction_read_only = on`); err != nil {
		t.Fatal(err)
	}
	c.Release()

	_, err = pool.Exec(ctx, `INSERT INTO spends VALUES (1)`)
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "25006" {
		t.Fatalf("write on a read-only session = %v, want SQLSTATE 25006", err)
	}
	if !pgpool.Unavailable(err) {
		t.Fatalf("Unavailable(%v) = false: a failover's read-only refusal must answer 503", err)
	}
	c, err = pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	after := c.Conn().PgConn().PID()
	_, err = c.Exec(ctx, `INSERT INTO spends VALUES (2)`)
	c.Release()
	if after == before || err != nil {
		t.Fatalf("after 25006 the pool handed out backend %d again (was %d), write: %v", after, before, err)
	}
}

// A pool full of connections to a server that went away (the old primary,
// killed): every call in between is "unavailable", and once a server answers
// at the address again the pool works with fresh connections, no restart.
func TestPoolFullOfDeadConnectionsRecovers(t *testing.T) {
	ctx := context.Background()
	direct := testdb.NewURL(t)
	u, err := url.Parse(direct)
	if err != nil {
		t.Fatal(err)
	}
	proxy := faultproxy.Start(t, u.Host)
	u.Host = proxy.Addr()
	pool := open(t, u.String(), 4)

	var held []*pgxpool.Conn
	pids := map[uint32]bool{}
	for range 4 {
		c, err := pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pids[c.Conn().PgConn().PID()] = true
		held = append(held, c)
	}
	for _, c := range held {
		c.Release()
	}

	proxy.Set(faultproxy.Down) // every open connection is cut, new ones refused
	for range 6 {
		_, err := pool.Exec(ctx, `SELECT 1`)
		if err == nil || !pgpool.Unavailable(err) {
			t.Fatalf("query while the server is gone = %v, want an unavailable error", err)
		}
	}

	proxy.Set(faultproxy.Up)
	deadline := time.Now().Add(10 * time.Second)
	for {
		var pid uint32
		err := pool.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid)
		if err == nil {
			if pids[pid] {
				t.Fatalf("the pool used backend %d from before the outage", pid)
			}
			break
		}
		if !pgpool.Unavailable(err) || time.Now().After(deadline) {
			t.Fatalf("after the server came back: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// All four slots work again, concurrently.
	for range 4 {
		c, err := pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Release()
		if _, err := c.Exec(ctx, `SELECT 1`); err != nil {
			t.Fatalf("a pooled connection after recovery: %v", err)
		}
	}
}

// The multi-host URI pg_autoctl gives (target_session_attrs=read-write):
// the pool skips a host that is down and connects to the one that answers
// read-write, whichever comes first in the list.
func TestMultiHostURIFindsTheWritableHost(t *testing.T) {
	direct := testdb.NewURL(t)
	u, err := url.Parse(direct)
	if err != nil {
		t.Fatal(err)
	}
	down := faultproxy.Start(t, u.Host)
	down.Set(faultproxy.Down)
	u.Host = down.Addr() + "," + u.Host
	q := u.Query()
	q.Set("target_session_attrs", "read-write")
	u.RawQuery = q.Encode()
	pool := open(t, u.String(), 2)
	var readOnly string
	if err := pool.QueryRow(context.Background(), `SHOW transaction_read_only`).Scan(&readOnly); err != nil || readOnly != "off" {
		t.Fatalf("multi-host %s: %q, %v", strings.ReplaceAll(u.Host, ",", " then "), readOnly, err)
	}
}
