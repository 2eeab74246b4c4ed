// Package redistest gives tests a Redis server: the one named by
// REDIS_TEST_URL, or else a private redis-server (Debian's package, which
// `make test` installs when it is missing: scripts/ensure-redis.sh) on a
// free loopback port, keeping nothing on disk, stopped when the test ends.
// It is this process's own child, so the kernel also stops it if the test
// binary dies (Linux). A server that cannot be had fails the test with the
// reason; nothing is skipped.
package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/internal/testing/testbin"
)

// readyTimeout is generous: a busy machine starts it slowly.
const readyTimeout = 20 * time.Second

// URL returns the address (redis://HOST:PORT) of a Redis server for t:
// REDIS_TEST_URL if set, otherwise a private server stopped at the end of t.
func URL(t testing.TB) string {
	t.Helper()
	if u := os.Getenv("REDIS_TEST_URL"); u != "" {
		return u
	}
	addr, err := Start(t)
	if err != nil {
		t.Fatalf("redis-server: %v", err)
	}
	return "redis://" + addr
}

// Start runs a private redis-server for t and returns its host:port.
func Start(t testing.TB) (string, error) {
	// redis-server's version, among others (make go-test sets it), so that
	// go test's cached result goes when it changes.
	os.Getenv("TEST_TOOLS_KEY")
	bin, err := binary()
	if err != nil {
		return "", err
	}
	port, err := freePort()
	if err != nil {
		return "", err
	}
	addr, stop, err := testbin.Start(bin, []string{"--bind", "127.0.0.1", "--port", strconv.Itoa(port), "--save", "", "--appendonly", "no",
		"--dir", t.TempDir()}, waitReady(port), readyTimeout)
	if err != nil {
		return "", err
	}
	t.Cleanup(stop)
	return addr, nil
}

// binary finds redis-server: $REDIS_SERVER_BIN, PATH, then Debian's place.
func binary() (string, error) {
	if b := os.Getenv("REDIS_SERVER_BIN"); b != "" {
		return b, nil
	}
	if b, err := exec.LookPath("redis-server"); err == nil {
		return b, nil
	}
	if _, err := os.Stat("/usr/bin/redis-server"); err == nil {
		return "/usr/bin/redis-server", nil
	}
	return "", errors.New("no redis-server on this machine: run scripts/ensure-redis.sh (make test does), or set REDIS_TEST_URL")
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// waitReady reads the server's log until it accepts connections.
func waitReady(port int) func(io.Reader) (string, error) {
	return func(out io.Reader) (string, error) {
		sc := bufio.NewScanner(out)
		var seen []string
		for sc.Scan() {
			line := sc.Text()
			if strings.Contains(line, "Ready to accept connections") {
				return fmt.Sprintf("127.0.0.1:%d", port), nil
			}
			if seen = append(seen, line); len(seen) > 40 {
				seen = seen[1:]
			}
		}
		return "", fmt.Errorf("redis-server exited before it was ready:\n%s", strings.Join(seen, "\n"))
	}
}
