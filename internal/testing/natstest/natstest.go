// Package natstest gives tests a NATS server with JetStream: the one named by
// NATS_TEST_URL, or else a private nats-server on a free loopback port with
// a temporary store directory, stopped when the test ends.
//
// The private server is installed once per machine by the Go toolchain
// (go install module@Version into the user cache) and executed directly, so
// it is this process's own child: the kernel also stops it if the test binary
// dies (Linux). A server that cannot be had fails the test with the reason;
// nothing is skipped.
package natstest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/internal/testing/testbin"
)

// Version is the nats-server release the tests run.
const Version = "v2.15.2"

const module = "github.com/nats-io/nats-server/v2"

// readyTimeout is generous: a busy machine starts it slowly.
const readyTimeout = 30 * time.Second

// URL returns the address (nats://HOST:PORT) of a JetStream-enabled server
// for t: NATS_TEST_URL if set, otherwise a private server stopped at the end
// of t.
func URL(t testing.TB) string {
	t.Helper()
	if u := os.Getenv("NATS_TEST_URL"); u != "" {
		return u
	}
	addr, err := start(t)
	if err != nil {
		t.Fatalf("nats-server %s: %v", Version, err)
	}
	return "nats://" + addr
}

// start runs the server with JetStream on a loopback port the server picks
// (-p -1, so no other process can take it in between) and a temporary store,
// waits until it is ready and accepts a connection, and stops it when t ends.
func start(t testing.TB) (string, error) {
	bin, err := testbin.Install(module, Version, "nats-server")
	if err != nil {
		return "", err
	}
	addr, stop, err := testbin.Start(bin, []string{"-js", "-a", "127.0.0.1", "-p", "-1", "-sd", t.TempDir()}, waitReady, readyTimeout)
	if err != nil {
		return "", err
	}
	t.Cleanup(stop)
	return addr, dial(addr)
}

// waitReady reads the server's log until it names its client address and
// reports itself ready.
func waitReady(out io.Reader) (string, error) {
	const listening = "Listening for client connections on "
	sc := bufio.NewScanner(out)
	var addr string
	var seen []string
	for sc.Scan() {
		line := sc.Text()
		if _, a, ok := strings.Cut(line, listening); ok {
			addr = strings.TrimSpace(a)
		}
		if strings.Contains(line, "Server is ready") && addr != "" {
			return addr, nil
		}
		if seen = append(seen, line); len(seen) > 40 {
			seen = seen[1:]
		}
	}
	return "", fmt.Errorf("exited before it was ready:\n%s", strings.Join(seen, "\n"))
}

// dial checks that the server accepts a TCP connection.
func dial(addr string) error {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return fmt.Errorf("not accepting connections on %s: %w", addr, err)
	}
	return c.Close()
}
