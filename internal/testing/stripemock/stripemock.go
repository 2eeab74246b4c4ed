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
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2e-automation/app/internal/testing/testbin"
)

// Version is the stripe-mock release the tests run.
const Version = "v0.203.0"

const module = "github.com/stripe/stripe-mock"

// listenTimeout is generous: a busy machine starts it slowly.
const listenTimeout = time.Minute

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

// start launches the server and waits until it listens; it runs until the
// test binary exits. Both listeners get a free loopback port (stripe-mock
// opens HTTPS too unless told where).
func start() (string, error) {
	bin, err := testbin.Install(module, Version, "stripe-mock")
	if err != nil {
		return "", err
	}
	addr, _, err := testbin.Start(bin, []string{"-http-addr", "127.0.0.1:", "-https-addr", "127.0.0.1:"}, listenAddr, listenTimeout)
	if err != nil {
		return "", err
	}
	return "http://" + addr, nil
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
