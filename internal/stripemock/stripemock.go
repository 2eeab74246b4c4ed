// Package stripemock runs stripe-mock, Stripe's mock of its API, for tests:
// one server per test binary, on a free loopback port, built once per
// machine by the Go toolchain at a pinned version.
//
// The binary is installed (go install module@Version into the user cache)
// and executed directly rather than through go run, so that the server is
// this process's own child: the kernel stops it when the test binary exits
// (Linux), however the test binary ends. A server that cannot be had fails
// the test with the reason; nothing is skipped.
package stripemock

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Version is the stripe-mock release the tests run.
const Version = "v0.203.0"

const module = "github.com/stripe/stripe-mock"

// Generous bounds: the first install downloads and compiles stripe-mock.
const (
	installTimeout = 5 * time.Minute
	listenTimeout  = time.Minute
)

var (
	once     sync.Once
	url      string
	startErr error
)

// URL returns the address of this test binary's stripe-mock
// (http://127.0.0.1:PORT), starting it on first use.
func URL(t testing.TB) string {
	t.Helper()
	once.Do(func() { url, startErr = start() })
	if startErr != nil {
		t.Fatalf("stripe-mock %s: %v", Version, startErr)
	}
	return url
}

// binary installs stripe-mock once per machine and returns its path.
func binary() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "a2e-stripe-mock", Version)
	bin := filepath.Join(dir, "stripe-mock")
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

// start launches the server and waits until it listens. Both listeners get
// a free loopback port (stripe-mock opens HTTPS too unless told where).
func start() (string, error) {
	bin, err := binary()
	if err != nil {
		return "", err
	}
	type started struct {
		addr string
		err  error
	}
	ready := make(chan started, 1)
	go func() {
		// The parent-death signal follows the thread that started the
		// child, so this goroutine keeps its thread until the child exits.
		runtime.LockOSThread()
		cmd := exec.Command(bin, "-http-addr", "127.0.0.1:", "-https-addr", "127.0.0.1:")
		cmd.SysProcAttr = childAttr()
		out, err := cmd.StdoutPipe()
		if err == nil {
			cmd.Stderr = cmd.Stdout
			err = cmd.Start()
		}
		if err != nil {
			ready <- started{err: err}
			return
		}
		addr, err := listenAddr(out)
		ready <- started{addr: addr, err: err}
		_, _ = io.Copy(io.Discard, out)
		_ = cmd.Wait()
	}()
	select {
	case s := <-ready:
		if s.err != nil {
			return "", s.err
		}
		return "http://" + s.addr, nil
	case <-time.After(listenTimeout):
		return "", errors.New("no HTTP listener announced within " + listenTimeout.String())
	}
}

// listenAddr reads the server's output until it names its HTTP address.
func listenAddr(out io.Reader) (string, error) {
	const announce = "Listening for HTTP at address: "
	sc := bufio.NewScanner(out)
	var seen []string
	for sc.Scan() {
		line := sc.Text()
		if addr, ok := strings.CutPrefix(line, announce); ok {
			return strings.TrimSpace(addr), nil
		}
		seen = append(seen, line)
	}
	return "", fmt.Errorf("exited before listening: %s", strings.Join(seen, "\n"))
}
