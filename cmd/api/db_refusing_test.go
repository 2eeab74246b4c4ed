package main

import (
	"context"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/internal/pgpool"
)

// alterTestDatabase runs ALTER DATABASE <the env's database> <set> from
// another database, and closes the pool's idle connections so the next
// request opens new ones under the change.
func alterTestDatabase(t *testing.T, e *desktopEnv, set string) {
	t.Helper()
	ctx := context.Background()
	admin, err := pgpool.WithDatabase(pgpool.WithoutPoolParams(e.deps.DatabaseURL), "postgres")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	name := e.deps.Pool.Config().ConnConfig.Database
	if _, err := conn.Exec(ctx, `ALTER DATABASE `+pgx.Identifier{name}.Sanitize()+` `+set); err != nil {
		t.Fatal(err)
	}
	e.deps.Pool.Reset()
}

// expectUnavailable fails unless r is the 503 of a database that cannot be
// used now, with Retry-After.
func expectUnavailable(t *testing.T, what string, r response) {
	t.Helper()
	expect(t, what, r, 503, msgUnavailable)
	if ra, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || ra <= 0 {
		t.Fatalf("%s: Retry-After %q", what, r.header.Get("Retry-After"))
	}
}

// A database that refuses connections (SQLSTATE 55000) is unavailable,
// not an internal error, on the reads and on a spend; nothing is charged.
func TestOutageDatabaseRefusingConnections(t *testing.T) {
	e := newDesktopEnv(t, 100)
	e.grant(5)
	alterTestDatabase(t, e, "ALLOW_CONNECTIONS false")
	t.Cleanup(func() { alterTestDatabase(t, e, "ALLOW_CONNECTIONS true") })
	expectUnavailable(t, "GET /v1/account", e.call("GET", "/v1/account", nil))
	expectUnavailable(t, "a spend", e.call("POST", "/v1/listings", map[string]string{"amazonUrl": productURL}, "Idempotency-Key", "refused-1"))

	alterTestDatabase(t, e, "ALLOW_CONNECTIONS true")
	expect(t, "the spend's retry", e.call("POST", "/v1/listings", map[string]string{"amazonUrl": productURL}, "Idempotency-Key", "refused-1"), 201, "")
	if b := e.balance(); b != 4 || len(spends(e)) != 1 {
		t.Fatalf("balance %d after one spend refused and retried, want 4", b)
	}
}

// A database that takes no writes (SQLSTATE 25006, as a demoted primary)
// answers a spend 503, and the retry is charged once.
func TestOutageDatabaseReadOnly(t *testing.T) {
	e := newDesktopEnv(t, 100)
	e.grant(5)
	alterTestDatabase(t, e, "SET default_transaction_read_only = on")
	t.Cleanup(func() { alterTestDatabase(t, e, "RESET default_transaction_read_only") })
	expectUnavailable(t, "a spend", e.call("POST", "/v1/listings", map[string]string{"amazonUrl": productURL}, "Idempotency-Key", "ro-1"))

	alterTestDatabase(t, e, "RESET default_transaction_read_only")
	expect(t, "the spend's retry", e.call("POST", "/v1/listings", map[string]string{"amazonUrl": productURL}, "Idempotency-Key", "ro-1"), 201, "")
	if b := e.balance(); b != 4 || len(spends(e)) != 1 {
		t.Fatalf("balance %d after one spend refused and retried, want 4", b)
	}
}
