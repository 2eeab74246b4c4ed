package main

// The handler tests' environment, in one file: the server on a fresh
// database (testEnv, testDeps), the desktop and staff variants (desktopEnv,
// staffEnv), requests and answers (request, response), and the helpers
// that arrange accounts, sign-ins, second factors and mail and wait for the
// workers. A test file keeps only the helpers of its own area.
//
// Each test has its own database, server and workers, so the tests run in
// parallel (t.Parallel, up to go test's -parallel at once), except those
// that time a clock or an outage (the *_outage, db_refusing, shutdown,
// commit_unknown and limits_shared files, the Prism conformance, the key
// expiry and grace tests): a busy machine would stretch what they measure;
// nor does TestTransactionsCSVStreams, which reads the process's heap.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pquerna/otp/totp"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/eventbus"
	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/startup"
	"github.com/a2e-automation/app/internal/testing/accountstest"
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
	t.Parallel()
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
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("csrf@example.com")
	r := e.do(request{method: "POST", path: "/api/user/api-key/regenerate", cookie: s.Cookie,
		header: map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}})
	if r.status != http.StatusForbidden {
		t.Fatalf("cross-site POST = %d, want 403", r.status)
	}
}

// Helpers for the sign-in tests of the browser API.

const testPassword = "correct-horse-battery"

// cookie returns the session cookie the response set, or nil.
func (r response) cookie() *http.Cookie {
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == sessionCookie || c.Name == hostCookie {
			return c
		}
	}
	return nil
}

// errorFields is an error answer.
type errorFields struct {
	Message string            `json:"message"`
	Errors  map[string]string `json:"errors"`
	Success *bool             `json:"success"`
}

func (r response) problem(t *testing.T) errorFields {
	t.Helper()
	var b errorFields
	r.json(t, &b)
	return b
}

// registered is an account signed up through the API.
type registered struct {
	ID, Email string
	Cookie    *http.Cookie
}

// register signs email up with testPassword.
func (e *testEnv) register(email string) registered {
	e.t.Helper()
	res := e.do(request{method: "POST", path: "/api/register", body: map[string]string{"email": email, "password": testPassword}})
	if res.status != http.StatusCreated {
		e.t.Fatalf("register %s = %d %s", email, res.status, res.body)
	}
	var b authResponse
	res.json(e.t, &b)
	return registered{ID: b.User.ID, Email: b.User.Email, Cookie: res.cookie()}
}

// mailTo lists the dev mailbox of to once every queued reset and mail has
// been handled (both go out after the answer).
func (e *testEnv) mailTo(to string) []mail.Captured {
	e.t.Helper()
	e.resetsHandled()
	e.mailSettled()
	res := e.do(request{method: "GET", path: "/api/dev/mail?to=" + to})
	if res.status != http.StatusOK {
		e.t.Fatalf("dev mail = %d %s", res.status, res.body)
	}
	var list []mail.Captured
	res.json(e.t, &list)
	return list
}

var codePattern = regexp.MustCompile(`\b\d{6}\b`)

// code is the verification code in the newest mail to to.
func (e *testEnv) code(to string) string {
	e.t.Helper()
	for _, m := range e.mailTo(to) {
		if strings.Contains(m.Subject, "verification code") {
			if c := codePattern.FindString(m.Text); c != "" {
				return c
			}
		}
	}
	e.t.Fatalf("no verification code mailed to %s", to)
	return ""
}

// Helpers to arrange and inspect accounts in the browser API's tests.

// exec runs SQL on the test database, to arrange states such as an
// expired code.
func (e *testEnv) exec(sql string, args ...any) {
	e.t.Helper()
	if _, err := e.deps.Pool.Exec(context.Background(), sql, args...); err != nil {
		e.t.Fatal(err)
	}
}

// subscribe gives account id an active monthly subscription.
func (e *testEnv) subscribe(id string) {
	e.t.Helper()
	res := accountstest.Do(e.t, e.repo(), id, func(a *domain.Account, now time.Time) error {
		return a.StartOrRenewCycle("sub_"+id, now, now.AddDate(0, 1, 0), domain.MonthlyCredits, now)
	})
	e.waitFor(res.LastPosition)
}

// countEvents counts the events of type typ in account id's stream.
func (e *testEnv) countEvents(id, typ string) int {
	e.t.Helper()
	h, err := e.repo().History(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	n := 0
	for _, ev := range h {
		if ev.Event.EventType() == typ {
			n++
		}
	}
	return n
}

// lastEvent is the type of account id's newest event.
func (e *testEnv) lastEvent(id string) string {
	e.t.Helper()
	h, err := e.repo().History(context.Background(), id)
	if err != nil || len(h) == 0 {
		e.t.Fatalf("history of %s: %d events, %v", id, len(h), err)
	}
	return h[len(h)-1].Event.EventType()
}

// desktopEnv is a test API whose rate limit is perMinute, with one seller.
type desktopEnv struct {
	*testEnv
	seller seeded
}

func newDesktopEnv(t *testing.T, perMinute int) *desktopEnv {
	e := newTestEnv(t, func(c *config.Config) { c.RateLimitPerMinute = perMinute })
	return &desktopEnv{testEnv: e, seller: e.seedAccount("seller@example.com")}
}

// grant gives the seller n purchased credits.
func (e *desktopEnv) grant(n int64) {
	e.t.Helper()
	res := accountstest.Do(e.t, e.repo(), e.seller.ID, accountstest.Grant(n, domain.SourcePurchase, nil))
	e.waitFor(res.LastPosition)
}

// call sends a /v1 request with the seller's key and extra headers.
func (e *desktopEnv) call(method, path string, body any, header ...string) response {
	e.t.Helper()
	h := map[string]string{"X-API-Key": e.seller.APIKey}
	for i := 0; i+1 < len(header); i += 2 {
		h[header[i]] = header[i+1]
	}
	return e.do(request{method: method, path: path, body: body, header: h})
}

// balance is the seller's balance from the event store.
func (e *desktopEnv) balance() int64 {
	e.t.Helper()
	a, err := e.repo().Replay(context.Background(), e.seller.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	return a.Balance(time.Now())
}

// staffEnv is a test API with a staff member and a customer whose history
// is arranged in the past with a settable clock, so times are exact.
type staffEnv struct {
	*testEnv
	staff, customer seeded
	clock           time.Time
	past            *accounts.Repository
	staffSecret     string // the staff member's TOTP secret
}

func newStaffEnv(t *testing.T, configure ...func(*config.Config)) *staffEnv {
	e := newTestEnv(t, configure...)
	s := &staffEnv{testEnv: e, staff: e.seedAccount("support@example.com"),
		clock: time.Now().UTC().Add(-60 * 24 * time.Hour).Truncate(time.Second)}
	s.past = accounts.NewRepository(e.deps.Store, func() time.Time { return s.clock })
	ctx := context.Background()
	signup, err := s.past.Register(ctx, e.deps.Keys, "seller@example.com", "not-a-real-hash", eventstore.Metadata{Actor: "test"})
	if err != nil {
		t.Fatal(err)
	}
	token, err := e.deps.Auth.CreateSession(ctx, e.deps.Pool, signup.AccountID, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	s.customer = seeded{ID: signup.AccountID, Email: signup.Email, Cookie: &http.Cookie{Name: sessionCookie, Value: token}}
	e.waitFor(signup.Result.LastPosition)
	if err := e.deps.Auth.SetStaff(ctx, "support@example.com", true); err != nil {
		t.Fatal(err)
	}
	s.staffSecret = e.passMFA(s.staff)
	return s
}

// passMFA enrols the second factor of staff member who and passes it with a
// TOTP code computed by pquerna/otp, as an authenticator app would, through
// the API; who's cookie gets the session's new token. It returns the TOTP
// secret.
func (e *testEnv) passMFA(who seeded) string {
	e.t.Helper()
	r := e.do(request{method: "POST", path: "/api/auth/mfa/enroll", cookie: who.Cookie})
	var enrol auth.Enrolment
	r.json(e.t, &enrol)
	if r.status != 201 || enrol.Secret == "" || len(enrol.RecoveryCodes) != auth.RecoveryCodes {
		e.t.Fatalf("enrol: %d %s", r.status, r.body)
	}
	code, err := totp.GenerateCode(enrol.Secret, time.Now())
	if err != nil {
		e.t.Fatal(err)
	}
	r = e.do(request{method: "POST", path: "/api/auth/mfa/verify", cookie: who.Cookie, body: map[string]any{"code": code}})
	if r.status != 200 || r.cookie() == nil {
		e.t.Fatalf("verify: %d %s", r.status, r.body)
	}
	who.Cookie.Value = r.cookie().Value // the session's new token
	return enrol.Secret
}

func (s *staffEnv) get(path string) response {
	return s.do(request{method: "GET", path: path, cookie: s.staff.Cookie})
}

// newStaffSession signs staff member who in once more (a new session, which
// has not passed the second factor).
func (e *testEnv) newStaffSession(who seeded) *http.Cookie {
	e.t.Helper()
	token, err := e.deps.Auth.CreateSession(context.Background(), e.deps.Pool, who.ID, time.Now())
	if err != nil {
		e.t.Fatal(err)
	}
	return &http.Cookie{Name: sessionCookieName(e.deps.Deps), Value: token}
}

// errorCode is the answer's error code, "" when it has none (or is not
// JSON). One helper for what staff_mfa_test.go and payments_abuse_test.go
// each had.
func (r response) errorCode(t testing.TB) string {
	t.Helper()
	var b errorBody
	_ = json.Unmarshal(r.body, &b)
	return b.Code
}

// resetsHandled waits until the reset worker has handled every queued
// request (it queues mail after the answer).
func (e *testEnv) resetsHandled() {
	e.t.Helper()
	e.waitUntilNone("reset requests", `SELECT count(*) FROM password_reset_requests WHERE outcome IS NULL`)
}

// mailSettled waits until the mail sender has settled every queued mail
// (sent, or waiting for a retry after a failure).
func (e *testEnv) mailSettled() {
	e.t.Helper()
	e.waitUntilNone("mails", `SELECT count(*) FROM mail_outbox WHERE status = 'sending' OR (status = 'pending' AND attempts = 0)`)
}

// waitUntilNone waits until count, a query counting rows still waiting,
// answers 0.
func (e *testEnv) waitUntilNone(what, count string) {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var waiting int
		if err := e.deps.Pool.QueryRow(context.Background(), count).Scan(&waiting); err != nil {
			e.t.Fatal(err)
		}
		if waiting == 0 {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%d %s still waiting", waiting, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// settingsRoute is a seller's settings route (GET and PUT on one path) with
// two signed-in sellers: verified, and unverified (whom the route refuses).
type settingsRoute struct {
	*testEnv
	path                 string
	verified, unverified seeded
}

// settingsRoute seeds <name>-unverified@example.com and the verified
// <name>@example.com for the route at path.
func (e *testEnv) settingsRoute(path, name string) settingsRoute {
	e.t.Helper()
	un := e.seedAccount(name + "-unverified@example.com")
	return settingsRoute{testEnv: e, path: path, unverified: un, verified: e.seedVerified(name + "@example.com")}
}

// put sends body to the route as the seller signed in by cookie.
func (s settingsRoute) put(cookie *http.Cookie, body any) response {
	s.t.Helper()
	return s.do(request{method: "PUT", path: s.path, cookie: cookie, body: body})
}

// get decodes the verified seller's settings into v, failing unless 200.
func (s settingsRoute) get(v any) {
	s.t.Helper()
	r := s.do(request{method: "GET", path: s.path, cookie: s.verified.Cookie})
	if r.status != http.StatusOK {
		s.t.Fatalf("GET %s = %d %s", s.path, r.status, r.body)
	}
	r.json(s.t, v)
}

// badSetting is a PUT the route refuses with a 400 invalid_request naming
// field.
type badSetting struct {
	cookie *http.Cookie
	body   string
	field  string
}

// expectRefused sends each bad setting and checks its 400, then that
// neither seller has an event of type event; it returns the answers' bodies
// in order, for checks of their own.
func (s settingsRoute) expectRefused(cases []badSetting, event string) []errorBody {
	s.t.Helper()
	bodies := make([]errorBody, len(cases))
	for i, tc := range cases {
		r := s.put(tc.cookie, tc.body)
		r.json(s.t, &bodies[i])
		if b := bodies[i]; r.status != http.StatusBadRequest || b.Errors[tc.field] == "" || b.Code != CodeInvalidRequest {
			s.t.Errorf("PUT %s = %d %s, want 400 naming %s", tc.body, r.status, r.body, tc.field)
		}
	}
	if n := s.countEvents(s.verified.ID, event) + s.countEvents(s.unverified.ID, event); n != 0 {
		s.t.Fatalf("refused settings recorded %d %s events", n, event)
	}
	return bodies
}
