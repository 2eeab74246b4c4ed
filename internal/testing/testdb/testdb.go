// Package testdb gives integration tests a fresh, migrated PostgreSQL
// database per call.
//
// The server is TEST_DATABASE_URL when set (a URL whose user may create
// databases), else a private server started with pgembed in
// <repo>/.data/testpg and left running for the next test binary. Migrations
// are applied once to a template database, tmpl_<hash of the migration
// files>, created under an advisory lock so that parallel test binaries
// share it; each call then clones the template, which is fast.
//
// There is no skipping: when no database can be had, the test fails with the
// reason.
package testdb

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/pgembed"
	"github.com/a2e-automation/app/internal/pgpool"
	"github.com/a2e-automation/app/migrations"
)

// EnvURL names the variable holding an existing server's admin URL.
const EnvURL = "TEST_DATABASE_URL"

// staleAfter is the age after which a test database left behind by a
// crashed test binary is dropped.
const staleAfter = 24 * time.Hour

// templateLockKey is the pg_advisory_lock key serialising template creation.
const templateLockKey int64 = 0x7465737464620001

var (
	mu        sync.Mutex
	adminURL  string
	adminPool *pgxpool.Pool
	template  string
)

// New returns a pool on a fresh migrated database, closed and dropped when
// the test ends.
func New(t testing.TB) *pgxpool.Pool {
	t.Helper()
	return Pool(t, NewURL(t))
}

// Pool opens a pool on dbURL (from NewURL), closed when the test ends.
func Pool(t testing.TB, dbURL string) *pgxpool.Pool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pool, err := pgpool.New(ctx, dbURL, pgpool.Options{MaxConns: pgpool.TestMaxConns})
	if err != nil {
		t.Fatalf("testdb: open pool: %v", err)
	}
	t.Cleanup(pool.Close) // runs before the drop registered by NewURL
	if err := pool.Ping(ctx); err != nil {
		t.Fatalf("testdb: connect to %s: %v", pgpool.Redact(dbURL), err)
	}
	return pool
}

// NewURL returns the URL of a fresh migrated database, dropped (WITH FORCE)
// when the test ends.
func NewURL(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	admin, pool, tmpl, err := setup(ctx)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	name := fmt.Sprintf("t_%d_%s", time.Now().Unix(), randomHex(6))
	create := fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", ident(name), ident(tmpl))
	if _, err := pool.Exec(ctx, create); err != nil {
		t.Fatalf("testdb: %s: %v", create, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := pool.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", ident(name))); err != nil {
			t.Errorf("testdb: drop database %s: %v", name, err)
		}
	})
	u, err := pgpool.WithDatabase(admin, name)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	return u
}

// setup finds the server and makes the template, once per process (a
// failure is retried by the next call).
func setup(ctx context.Context) (admin string, pool *pgxpool.Pool, tmpl string, err error) {
	mu.Lock()
	defer mu.Unlock()
	if adminPool == nil {
		admin, err := serverURL(ctx)
		if err != nil {
			return "", nil, "", err
		}
		cfg, err := pgxpool.ParseConfig(admin)
		if err != nil {
			return "", nil, "", fmt.Errorf("parse admin URL %s: %w", pgpool.Redact(admin), err)
		}
		cfg.MaxConns = 4
		p, err := pgxpool.NewWithConfig(ctx, cfg)
		if err != nil {
			return "", nil, "", fmt.Errorf("connect to %s: %w", pgpool.Redact(admin), err)
		}
		if err := p.Ping(ctx); err != nil {
			p.Close()
			return "", nil, "", fmt.Errorf("connect to %s: %w", pgpool.Redact(admin), err)
		}
		adminURL, adminPool = admin, p
	}
	if template == "" {
		name, err := ensureTemplate(ctx, adminURL)
		if err != nil {
			return "", nil, "", err
		}
		template = name
	}
	return adminURL, adminPool, template, nil
}

// serverURL is TEST_DATABASE_URL or the URL of the private server.
func serverURL(ctx context.Context) (string, error) {
	// TEST_TOOLS_KEY (make go-test: scripts/test-cache.sh go-tools-key) is
	// the versions of PostgreSQL and the other programs the tests start:
	// read, so that go test's cached results go when one of them changes.
	os.Getenv("TEST_TOOLS_KEY")
	if u := os.Getenv(EnvURL); u != "" {
		if _, err := pgpool.WithDatabase(u, "postgres"); err != nil {
			return "", fmt.Errorf("%s: %w", EnvURL, err)
		}
		return u, nil
	}
	root, err := pgembed.RepoRoot()
	if err != nil {
		return "", fmt.Errorf("%s is not set and the repository root (for .data/testpg) cannot be found: %w", EnvURL, err)
	}
	srv, err := pgembed.Start(ctx, pgembed.Options{DataDir: filepath.Join(root, ".data", "testpg"), Fast: true})
	if err != nil {
		return "", fmt.Errorf("%s is not set and no private PostgreSQL could be started: %w", EnvURL, err)
	}
	return srv.URL(), nil
}

// TemplateName is the template database for the current migration files.
func TemplateName() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(migrations.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(migrations.FS, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(data))
		h.Write(data)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash migrations: %w", err)
	}
	return "tmpl_" + hex.EncodeToString(h.Sum(nil))[:12], nil
}

// ensureTemplate creates and migrates the template unless it exists. It is
// built under another name and renamed when complete, so that a crash never
// leaves a half-migrated template behind.
func ensureTemplate(ctx context.Context, admin string) (string, error) {
	name, err := TemplateName()
	if err != nil {
		return "", err
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return "", fmt.Errorf("connect to %s: %w", pgpool.Redact(admin), err)
	}
	defer conn.Close(context.Background()) // also releases the advisory lock
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", templateLockKey); err != nil {
		return "", fmt.Errorf("lock for the template: %w", err)
	}
	sweep(ctx, conn)

	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", fmt.Errorf("look for the template: %w", err)
	}
	if exists {
		return name, nil
	}
	build := name + "_build"
	for _, sql := range []string{
		fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", ident(build)),
		fmt.Sprintf("CREATE DATABASE %s TEMPLATE template0 ENCODING 'UTF8'", ident(build)),
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			return "", fmt.Errorf("%s: %w", sql, err)
		}
	}
	buildURL, err := pgpool.WithDatabase(admin, build)
	if err != nil {
		return "", err
	}
	if err := migrations.Apply(ctx, buildURL); err != nil {
		return "", fmt.Errorf("migrate the template %s: %w", build, err)
	}
	for _, sql := range []string{
		fmt.Sprintf("ALTER DATABASE %s RENAME TO %s", ident(build), ident(name)),
		fmt.Sprintf("ALTER DATABASE %s IS_TEMPLATE true", ident(name)),
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			return "", fmt.Errorf("%s: %w", sql, err)
		}
	}
	return name, nil
}

var testDBName = regexp.MustCompile(`^t_([0-9]+)_[0-9a-f]+$`)

// sweep drops test databases left behind by test binaries that died before
// their cleanups ran. Best effort.
func sweep(ctx context.Context, conn *pgx.Conn) {
	rows, err := conn.Query(ctx, "SELECT datname FROM pg_database WHERE datname LIKE 't\\_%'")
	if err != nil {
		return
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return
	}
	for _, n := range names {
		m := testDBName.FindStringSubmatch(n)
		if m == nil {
			continue
		}
		sec, _ := strconv.ParseInt(m[1], 10, 64)
		if time.Since(time.Unix(sec, 0)) > staleAfter {
			_, _ = conn.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", ident(n)))
		}
	}
}

func ident(name string) string { return pgx.Identifier{name}.Sanitize() }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
