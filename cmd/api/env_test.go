package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/eventbus"
	"github.com/a2e-automation/app/internal/startup"
	"github.com/a2e-automation/app/internal/testing/syncbuf"
	"github.com/a2e-automation/app/internal/testing/testdb"
	"github.com/a2e-automation/app/projections"
)

// testEnv is the real router on a fresh migrated database, with the
// projector running, served by httptest.
type testEnv struct {
	t       testing.TB
	deps    testDeps
	handler http.Handler
	srv     *httptest.Server
	logs    *logBuffer // the server's warnings and errors
}

// testDeps are the server's services and, for the tests alone, the database
// under them: the pool and event store to inspect or break, and its URL.
type testDeps struct {
	wiring
	Pool        *pgxpool.Pool
	Store       *eventstore.Store
	DatabaseURL string
}

// logBuffer is a log destination that tests read while the server writes.
type logBuffer = syncbuf.Buffer

// testConfig is the development configuration of a test, changed by
// configure.
func testConfig(t testing.TB, configure ...func(*config.Config)) config.Config {
	t.Helper()
	cfg, err := config.Load(func(k string) string { return map[string]string{"APP_ENV": config.Development}[k] })
	if err != nil {
		t.Fatal(err)
	}
	cfg.DownloadsDir = t.TempDir()
	cfg.PagesDir = filepath.Join("..", "..", "content", "pages") // the repository's, as make run reads them
	for _, c := range configure {
		c(&cfg)
	}
	return cfg
}

// newTestEnv starts the API for a test on a fresh database; configure may
// change the development configuration first.
func newTestEnv(t testing.TB, configure ...func(*config.Config)) *testEnv {
	t.Helper()
	url := testdb.NewURL(t)
	return newTestEnvOn(t, testConfig(t, configure...), url, testdb.Pool(t, url))
}

// newTestEnvOn starts the API with cfg on the migrated database at url,
// through pool: the router, the supervised projector, the reset worker and
// the mail sender, as bin/api -with-projector runs them.
func newTestEnvOn(t testing.TB, cfg config.Config, url string, pool *pgxpool.Pool) *testEnv {
	t.Helper()
	logs := &logBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	d, err := newDeps(cfg, log, &startup.Database{Pool: pool, URL: url})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Accounts.Close) // before the pool closes
	tr, err := eventbus.New(eventbus.Config{Kind: eventbus.KindSQL}, pool, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tr.Supervise(ctx, d.Projections, projections.RunOptions{PollInterval: 20 * time.Millisecond}, log)
	}()
	resetsDone, mailDone := make(chan struct{}), make(chan struct{})
	go func() { defer close(resetsDone); d.Resets.Run(ctx, 20*time.Millisecond) }()
	go func() { defer close(mailDone); d.Mail.Run(ctx) }()
	h, err := NewServer(d.Deps)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); cancel(); <-done; <-resetsDone; <-mailDone })
	deps := testDeps{wiring: d, Pool: pool, Store: eventstore.New(pool), DatabaseURL: url}
	return &testEnv{t: t, deps: deps, handler: h, srv: srv, logs: logs}
}

// seeded is an account made directly through the repository.
type seeded struct {
	ID, Email, APIKey string
	Cookie            *http.Cookie
	Result            eventstore.Result
}

// seedAccount registers an account and signs it in, without going through
// the sign-up routes.
func (e *testEnv) seedAccount(email string) seeded {
	e.t.Helper()
	ctx := context.Background()
	s, err := e.deps.Accounts.Register(ctx, e.deps.Keys, email, "not-a-real-hash", eventstore.Metadata{Actor: "test"})
	if err != nil {
		e.t.Fatal(err)
	}
	token, err := e.deps.Auth.CreateSession(ctx, e.deps.Pool, s.AccountID, time.Now())
	if err != nil {
		e.t.Fatal(err)
	}
	e.waitFor(s.Result.LastPosition)
	return seeded{ID: s.AccountID, Email: s.Email, APIKey: s.APIKey, Result: s.Result,
		Cookie: &http.Cookie{Name: sessionCookieName(e.deps.Deps), Value: token}}
}

// seedVerified is seedAccount with the email address verified, as the
// payment and support routes require.
func (e *testEnv) seedVerified(email string) seeded {
	e.t.Helper()
	s := e.seedAccount(email)
	res, err := e.deps.Accounts.Update(context.Background(), s.ID, eventstore.UpdateOptions{Metadata: eventstore.Metadata{Actor: "test"}},
		func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
			return nil, a.VerifyEmail(now)
		})
	if err != nil {
		e.t.Fatal(err)
	}
	e.waitFor(res.LastPosition)
	return s
}

// waitFor waits until every projection has applied position.
func (e *testEnv) waitFor(position int64) {
	e.t.Helper()
	if err := e.deps.Projections.WaitFor(context.Background(), position, 10*time.Second); err != nil {
		e.t.Fatal(err)
	}
}

// repo is the account repository, for arranging state in tests.
func (e *testEnv) repo() *accounts.Repository { return e.deps.Accounts }

// request is one HTTP call in a test.
type request struct {
	method, path string
	body         any // JSON-encoded unless a string (sent as is)
	cookie       *http.Cookie
	header       map[string]string
}

// response is what came back.
type response struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the body into v.
func (r response) json(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

// message is the body's "message" field.
func (r response) message(t testing.TB) string {
	var b struct{ Message string }
	r.json(t, &b)
	return b.Message
}

func (e *testEnv) do(req request) response {
	e.t.Helper()
	var body io.Reader
	switch b := req.body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		body = bytes.NewReader(buf)
	}
	hr, err := http.NewRequest(req.method, e.srv.URL+req.path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	for k, v := range req.header {
		hr.Header.Set(k, v)
	}
	if req.cookie != nil {
		hr.AddCookie(req.cookie)
	}
	res, err := e.srv.Client().Do(hr)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return response{status: res.StatusCode, header: res.Header, body: b}
}

func TestHealthAndReadiness(t *testing.T) {
	e := newTestEnv(t)
	if r := e.do(request{method: "GET", path: "/healthz"}); r.status != 200 {
		t.Fatalf("healthz = %d", r.status)
	}
	if r := e.do(request{method: "GET", path: "/readyz"}); r.status != 200 {
		t.Fatalf("readyz = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "GET", path: "/metrics"}); strings.Contains(string(r.body), "go_goroutines") {
		t.Fatal("/metrics is served on the public port")
	}
	r := e.do(request{method: "GET", path: "/api/plans"})
	var plans struct {
		Plan struct{ PriceCents int64 }
	}
	r.json(t, &plans)
	if r.status != 200 || plans.Plan.PriceCents != 2999 {
		t.Fatalf("plans = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "GET", path: "/api/nope"}); r.status != 404 || r.message(t) == "" {
		t.Fatalf("unknown api route = %d %s", r.status, r.body)
	}
}

func TestCrossSiteStateChangeRefused(t *testing.T) {
	e := newTestEnv(t)
	s := e.seedAccount("csrf@example.com")
	r := e.do(request{method: "POST", path: "/api/user/api-key/regenerate", cookie: s.Cookie,
		header: map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}})
	if r.status != http.StatusForbidden {
		t.Fatalf("cross-site POST = %d, want 403", r.status)
	}
}
