// Package systest holds what the system tests (test/cluster, test/ha) share:
// the binaries built once per test, and the check that the read tables equal
// a rebuild of every projection from the events (bin/projector -rebuild).
package systest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ReadTables are the projections' tables, each rebuilt by bin/projector
// -rebuild of the same name.
var ReadTables = []string{"profiles", "usage_statistics", "transactions", "usage_daily"}

// Root is the repository's root directory: the first folder holding go.mod
// at or above the test's working directory (go test runs a test in its
// package's folder). Not the source file's path: make test builds the tests
// with -trimpath, which leaves module paths, not folders, in the binary.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatalf("systest: working directory: %v", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("systest: no go.mod at or above the working directory")
		}
		dir = parent
	}
}

// BuildKey reads TEST_BUILD_KEY (make go-test sets it: scripts/test-cache.sh
// go-build-key, a hash of the files the commands and the SDKs are built
// from). go test caches a package's result on its own imports, the files it
// opens and the environment it reads; a test that builds bin/api with go
// build, or runs an SDK, reads that key, so that its cached result goes when
// those files change. Call it before building or running them.
func BuildKey() string { return os.Getenv("TEST_BUILD_KEY") }

// BuildBinaries builds bin/api and bin/projector into a temporary folder.
func BuildBinaries(t testing.TB) (api, projector string) {
	t.Helper()
	BuildKey()
	dir := t.TempDir()
	for _, name := range []string{"api", "projector"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, name), "./cmd/"+name)
		cmd.Dir = Root(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", name, err, out)
		}
	}
	return filepath.Join(dir, "api"), filepath.Join(dir, "projector")
}

// WaitCaughtUp waits until every stream's events are applied by every
// projection.
func WaitCaughtUp(t testing.TB, pool *pgxpool.Pool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var behind int
		// A stream's last event is applied when the projection's watermark
		// is at or past it, or a per-stream catch-up's checkpoint is.
		err := pool.QueryRow(context.Background(), `SELECT count(*) FROM streams s CROSS JOIN unnest($1::text[]) p(name)
			LEFT JOIN projection_checkpoints c ON c.projection = p.name AND c.stream_id = s.stream_id
			LEFT JOIN projection_watermarks w ON w.projection = p.name
			JOIN events e ON e.stream_id = s.stream_id AND e.stream_version = s.version
			WHERE s.version > coalesce(c.version, 0) AND e.global_position > coalesce(w.position, 0)`, ReadTables).Scan(&behind)
		if err == nil && behind == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("projectors still %d stream-projections behind after a minute (%v)", behind, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// DumpReadTables reads every read table in a fixed order, as text.
func DumpReadTables(t testing.TB, pool *pgxpool.Pool) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, tbl := range ReadTables {
		rows, err := pool.Query(context.Background(), `SELECT t::text FROM `+pgx.Identifier{tbl}.Sanitize()+` t ORDER BY t::text`)
		if err != nil {
			t.Fatal(err)
		}
		out[tbl], err = pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// RequireRebuildEqual waits for the projectors, then rebuilds every read
// table from the events with projectorBin (env names the database) and fails
// unless the rebuilt tables equal the live ones.
func RequireRebuildEqual(t testing.TB, pool *pgxpool.Pool, projectorBin string, env []string) {
	t.Helper()
	WaitCaughtUp(t, pool)
	live := DumpReadTables(t, pool)
	for _, name := range ReadTables {
		cmd := exec.Command(projectorBin, "-rebuild", name)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("rebuild %s: %v\n%s", name, err, out)
		}
	}
	if rebuilt := DumpReadTables(t, pool); !reflect.DeepEqual(live, rebuilt) {
		t.Fatalf("read tables differ from a rebuild from the events:\nlive    %v\nrebuilt %v", live, rebuilt)
	}
}
