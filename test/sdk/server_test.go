package sdk_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/devseed"
	"github.com/a2e-automation/app/internal/testing/faultproxy"
	"github.com/a2e-automation/app/internal/testing/syncbuf"
	"github.com/a2e-automation/app/internal/testing/testbin"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// rateLimit is bin/api's RATE_LIMIT_PER_MINUTE: a key that used it up may
// call again after 60/rateLimit seconds (its Retry-After).
const rateLimit = 30

// repoRoot is the repository, from this package's directory.
const repoRoot = "../.."

// server is bin/api, built from the tree, in development on a fresh
// database that it reaches through a fault proxy; the test reaches the
// database directly.
type server struct {
	base  string // http://127.0.0.1:port
	db    *pgxpool.Pool
	proxy *faultproxy.Proxy
	http  *http.Client
}

// buildAPI builds bin/api from the tree, once for every SDK's server.
func buildAPI(t *testing.T) string {
	t.Helper()
	// go test caches on what the test imports; bin/api and the SDK runners are
	// built from the tree: TEST_BUILD_KEY (make go-test) hashes those files.
	os.Getenv("TEST_BUILD_KEY")
	bin := filepath.Join(t.TempDir(), "api")
	build := exec.Command("go", "build", "-o", bin, "./cmd/api")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/api: %v\n%s", err, out)
	}
	return bin
}

// startServer starts bin (buildAPI's) on a fresh database behind a fault
// proxy of its own.
func startServer(t *testing.T, bin string) *server {
	t.Helper()
	direct := testdb.NewURL(t)
	s := &server{db: testdb.Pool(t, direct), http: &http.Client{Timeout: 30 * time.Second}}
	u, err := url.Parse(direct)
	if err != nil {
		t.Fatal(err)
	}
	s.proxy = faultproxy.Start(t, u.Host)
	s.proxy.Set(faultproxy.Postgres)
	u.Host = s.proxy.Addr()
	q := u.Query()
	q.Set("sslmode", "disable") // the proxy reads the protocol in plaintext to cut a COMMIT
	u.RawQuery = q.Encode()

	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + os.TempDir(),
		"APP_ENV=development", "DATABASE_URL=" + u.String(), "METRICS_ADDR=off", "LOG_LEVEL=warn",
		fmt.Sprintf("RATE_LIMIT_PER_MINUTE=%d", rateLimit)}
	log := &syncbuf.Buffer{}
	base, stop, err := testbin.StartEnv(bin, []string{"-addr", "127.0.0.1:0"}, env, log, listening, time.Minute)
	if err != nil {
		t.Fatalf("bin/api: %v\n%s", err, log.String())
	}
	t.Cleanup(stop)
	t.Cleanup(func() {
		if t.Failed() {
			out := log.String()
			t.Logf("bin/api's log (tail):\n%s", out[max(0, len(out)-8000):])
		}
	})
	s.base = base
	return s
}

// listening reads bin/api's output until it says where it listens.
func listening(r io.Reader) (string, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if addr, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
			return addr, nil
		}
	}
	return "", fmt.Errorf("bin/api exited before listening")
}

// seller makes an account with its API key (internal/devseed).
func (s *server) seller(t *testing.T, o devseed.Options) devseed.Seller {
	t.Helper()
	sl, err := devseed.New(context.Background(), s.db, o)
	if err != nil {
		t.Fatalf("seed a seller: %v", err)
	}
	return sl
}

// do makes one /v1 call with key and answers its status and body.
func (s *server) do(method, path, key string, body any) (int, []byte, error) {
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.base+path, r)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("X-API-Key", key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := s.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// otherListing is the id of a listing of a new account.
func (s *server) otherListing(t *testing.T) string {
	t.Helper()
	other := s.seller(t, devseed.Options{Credits: 1})
	status, body, err := s.do(http.MethodPost, "/v1/listings", other.APIKey,
		map[string]string{"amazonUrl": "https://www.amazon.com/dp/B08N5WRWNW"})
	var l struct{ ID string }
	if err != nil || status != http.StatusCreated || json.Unmarshal(body, &l) != nil || l.ID == "" {
		t.Fatalf("another account's listing: %d %s (%v)", status, body, err)
	}
	return l.ID
}

// exhaust uses up key's per-minute limit: calls until one is refused.
func (s *server) exhaust(key string) error {
	for range 2 * rateLimit {
		status, _, err := s.do(http.MethodGet, "/v1/account", key, nil)
		if err != nil {
			return err
		}
		if status == http.StatusTooManyRequests {
			return nil
		}
	}
	return fmt.Errorf("%d calls and no 429: is RATE_LIMIT_PER_MINUTE %d?", 2*rateLimit, rateLimit)
}

// charges counts the spends of an account, what it paid: CreditsSpent
// events and the charges listings and VeRO checks carry (domain.SpendOf).
func (s *server) charges(t *testing.T, accountID string) int {
	t.Helper()
	var n int
	err := s.db.QueryRow(context.Background(), `SELECT count(*) FROM events WHERE stream_id = $1 AND
		(event_type = 'CreditsSpent' OR (event_type IN ('ListingRequested', 'VeroCheckPerformed') AND data ? 'spent'))`,
		domain.StreamID(accountID)).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// settle is how long a step that took PostgreSQL down waits once it is
// back: bin/api's pool (pgxpool) pings a connection idle for over a second
// before handing it out, so by then the connections the outage broke are
// dropped instead of failing the next case's first request.
const settle = 1100 * time.Millisecond

// noServer is an address where nothing listens.
func noServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return "http://" + addr
}
