package testdb

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

func TestFreshDatabasesAreMigratedAndIndependent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a, b := New(t), New(t)

	name := func(p *pgxpool.Pool) string {
		var n string
		if err := p.QueryRow(ctx, "SELECT current_database()").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if na, nb := name(a), name(b); na == nb || !strings.HasPrefix(na, "t_") {
		t.Fatalf("databases %q and %q: want two distinct t_ databases", na, nb)
	}

	for _, p := range []*pgxpool.Pool{a, b} {
		var events *string
		if err := p.QueryRow(ctx, "SELECT to_regclass('public.events')::text").Scan(&events); err != nil {
			t.Fatal(err)
		}
		if events == nil {
			t.Fatal("table events missing: the fresh database is not migrated")
		}
	}

	if _, err := a.Exec(ctx, "CREATE TABLE only_in_a (x int); INSERT INTO only_in_a VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	var inB *string
	if err := b.QueryRow(ctx, "SELECT to_regclass('public.only_in_a')::text").Scan(&inB); err != nil {
		t.Fatal(err)
	}
	if inB != nil {
		t.Fatal("a table created in one fresh database shows up in the other")
	}
}

func TestDatabaseDroppedAtCleanup(t *testing.T) {
	var dbURL string
	t.Run("inner", func(t *testing.T) {
		dbURL = NewURL(t)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, dbURL)
		if err != nil {
			t.Fatal(err)
		}
		// Left open on purpose: the drop must not wait for it.
		_ = conn
	})
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, pool, _, err := setup(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var exists bool
	if err := pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		t.Fatal(err)
	}
	if exists {
		t.Fatalf("database %s still exists after its test ended", name)
	}
}

func TestTemplateName(t *testing.T) {
	n1, err := TemplateName()
	if err != nil {
		t.Fatal(err)
	}
	n2, _ := TemplateName()
	if n1 != n2 || !regexp.MustCompile(`^tmpl_[0-9a-f]{12}$`).MatchString(n1) {
		t.Fatalf("TemplateName = %q then %q, want one stable tmpl_<12 hex>", n1, n2)
	}
}
