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
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Version is the nats-server release the tests run.
const Version = "v2.15.2"

const module = "github.com/nats-io/nats-server/v2"

// Generous bounds: the first install downloads and compiles nats-server.
const (
	installTimeout = 5 * time.Minute
	readyTimeout   = 30 * time.Second
)

// URL returns the address (nats://HOST:PORT) of a JetStream-enabled server
// for t: NATS_TEST_URL if set, otherwise a private server stopped at the end
// of t.
func URL(t testing.TB) string {
	t.Helper()
	if u := os.Getenv("NATS_TEST_URL"); u != "" {
		return u
	}
	bin, err := binary()
	if err != nil {
		t.Fatalf("nats-server %s: %v", Version, err)
	}
	addr, stop, err := start(bin, t.TempDir())
	if err != nil {
		t.Fatalf("nats-server %s: %v", Version, err)
	}
	t.Cleanup(stop)
	return "nats://" + addr
}

// binary installs nats-server once per machine and returns its path.
func binary() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "a2e-nats-server", Version)
	bin := filepath.Join(dir, "nats-server")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, "install", module+"@"+Version)
	cmd.Dir = os.TempDir() // outside any module: module@version ignores go.mod anyway
	cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go install %s@%s: %v\n%s", module, Version, err, out)
	}
	return bin, nil
}

// start runs the server with JetStream on a loopback port the server picks
// (-p -1, so no other process can take it in between), waits until it is
// ready and accepts a connection, and returns its address and a function that
// kills it and waits for it to exit.
func start(bin, storeDir string) (addr string, stop func(), err error) {
	type started struct {
		addr string
		err  error
	}
	ready := make(chan started, 1)
	exited := make(chan struct{})
	procs := make(chan *os.Process, 1)
	go func() {
		defer close(exited)
		// The parent-death signal follows the thread that started the
		// child, so this goroutine keeps its thread until the child exits.
		runtime.LockOSThread()
		cmd := exec.Command(bin, "-js", "-a", "127.0.0.1", "-p", "-1", "-sd", storeDir)
		cmd.SysProcAttr = childAttr()
		out, err := cmd.StderrPipe()
		if err == nil {
			cmd.Stdout = io.Discard
			err = cmd.Start()
		}
		if err != nil {
			ready <- started{err: err}
			return
		}
		procs <- cmd.Process
		addr, err := waitReady(out)
		ready <- started{addr: addr, err: err}
		_, _ = io.Copy(io.Discard, out)
		_ = cmd.Wait()
	}()
	kill := func() {
		select {
		case p := <-procs:
			_ = p.Kill()
		default:
		}
		<-exited
	}
	select {
	case s := <-ready:
		if s.err == nil {
			s.err = dial(s.addr)
		}
		if s.err != nil {
			kill()
			return "", nil, s.err
		}
		return s.addr, kill, nil
	case <-time.After(readyTimeout):
		kill()
		return "", nil, fmt.Errorf("not ready within %s", readyTimeout)
	}
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
