package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/pgembed"
	"github.com/a2e-automation/app/internal/pgpool"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/internal/testing/faultproxy"
	"github.com/a2e-automation/app/migrations"
)

// outageDB is a PostgreSQL of the test's own (durable, so a restart keeps
// what was acknowledged) with a database "outage", reached through a fault
// proxy.
type outageDB struct {
	srv   *pgembed.Server
	opts  pgembed.Options
	proxy *faultproxy.Proxy
	url   string // through the proxy, with pool_max_conns
}

func startOutageDB(t *testing.T) *outageDB {
	t.Helper()
	ctx := context.Background()
	opts := pgembed.Options{DataDir: filepath.Join(t.TempDir(), "pg")}
	srv, err := pgembed.Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop(context.Background()) })
	conn, err := pgx.Connect(ctx, srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `CREATE DATABASE outage`); err != nil {
		t.Fatal(err)
	}
	_ = conn.Close(ctx)
	opts.Port = srv.Port()
	proxy := faultproxy.Start(t, fmt.Sprintf("127.0.0.1:%d", srv.Port()))
	url, err := pgpool.WithDatabase(strings.Replace(srv.URL(), fmt.Sprintf(":%d", srv.Port()), ":"+strings.Split(proxy.Addr(), ":")[1], 1), "outage")
	if err != nil {
		t.Fatal(err)
	}
	return &outageDB{srv: srv, opts: opts, proxy: proxy, url: url + "&pool_max_conns=6"}
}

// restart stops the server and, after down, starts it again on its port.
func (o *outageDB) restart(t *testing.T, down time.Duration) {
	t.Helper()
	if err := o.srv.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(down)
	srv, err := pgembed.Start(context.Background(), o.opts)
	if err != nil {
		t.Fatal(err)
	}
	o.srv = srv
}

// timedCall is one HTTP call of the load: when it started, how long it took.
type timedCall struct {
	start time.Time
	took  time.Duration
}

// The API and its projector ride out a PostgreSQL restart and a frozen
// server mid-load: every answer is a 201 or a 503 with Retry-After (never a
// 500, never a hang past the request deadline), every spend acknowledged
// is in the ledger once, and both recover by themselves.
func TestDatabaseRestartAndFreezeMidLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and restarts a PostgreSQL of its own")
	}
	db := startOutageDB(t)
	ctx := context.Background()

	// Processes starting together migrate once, under the advisory lock,
	// and pool_max_conns in the URL is honoured, not sent to the server.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if err := migrations.Apply(ctx, db.url); err != nil {
				t.Errorf("concurrent migration: %v", err)
			}
		})
	}
	wg.Wait()
	cfg := testConfig(t, func(c *config.Config) {
		c.RequestTimeout, c.DBStatementTimeout, c.RateLimitPerMinute = 2*time.Second, time.Second, 1<<30
	})
	pool, err := pgpool.New(ctx, db.url, apiPoolOptions(cfg, true))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if got := pool.Config().MaxConns; got != 6 {
		t.Fatalf("pool_max_conns=6 gave a pool of %d", got)
	}
	e := newTestEnvOn(t, cfg, db.url, pool)
	s := e.seedAccount("outage@example.com")
	accountstest.Do(t, e.repo(), s.ID, func(a *domain.Account, now time.Time) error {
		return a.GrantCredits(domain.CreditsGranted{Amount: 1_000_000, Source: domain.SourcePromo}, now)
	})

	var (
		acknowledged, unavailable, failures atomic.Int64
		stop                                = make(chan struct{})
		callsMu                             sync.Mutex
		calls                               []timedCall
	)
	client := &http.Client{Timeout: 30 * time.Second}
	spend := func(key string) int {
		req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/v1/listings", strings.NewReader(`{"amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-API-Key", s.APIKey)
		req.Header.Set("Idempotency-Key", key)
		start := time.Now()
		res, err := client.Do(req)
		callsMu.Lock()
		calls = append(calls, timedCall{start: start, took: time.Since(start)})
		callsMu.Unlock()
		if err != nil {
			t.Errorf("spend %s: %v", key, err)
			return 0
		}
		res.Body.Close()
		if res.StatusCode == http.StatusServiceUnavailable && res.Header.Get("Retry-After") == "" {
			t.Errorf("503 without Retry-After")
		}
		return res.StatusCode
	}
	for g := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				key := fmt.Sprintf("outage-%d-%d", g, i)
				// As docs/desktop-api.md tells the client: retry a 503 with
				// the same key until the answer is definite.
				for attempt := 0; ; attempt++ {
					status := spend(key)
					if status == http.StatusCreated {
						acknowledged.Add(1)
						break
					}
					if status != http.StatusServiceUnavailable || attempt == 200 {
						failures.Add(1)
						t.Errorf("spend %s = %d", key, status)
						break
					}
					unavailable.Add(1)
					time.Sleep(100 * time.Millisecond)
				}
			}
		})
	}
	time.Sleep(time.Second)
	db.restart(t, 1500*time.Millisecond)
	time.Sleep(1500 * time.Millisecond)
	freezeStart := time.Now()
	db.proxy.Set(faultproxy.Frozen)
	time.Sleep(3 * time.Second)
	freezeEnd := time.Now()
	db.proxy.Set(faultproxy.Up)
	time.Sleep(1500 * time.Millisecond)
	close(stop)
	wg.Wait()

	if failures.Load() > 0 {
		t.Fatalf("%d spends failed", failures.Load())
	}
	if unavailable.Load() == 0 {
		t.Fatal("no 503 during a restart and a freeze: the outage was not seen")
	}
	// Every call that started while the server was frozen ended within
	// the request deadline (and some slack), whether it finished during the
	// freeze or after it.
	duringFreeze := 0
	for _, c := range calls {
		if c.start.Before(freezeStart) || !c.start.Before(freezeEnd) {
			continue
		}
		duringFreeze++
		if c.took > cfg.RequestTimeout+time.Second {
			t.Errorf("a call started during the freeze took %v; the deadline is %v", c.took, cfg.RequestTimeout)
		}
	}
	if duringFreeze == 0 {
		t.Fatal("no call started while the server was frozen")
	}
	listings := e.countEvents(s.ID, "ListingRequested")
	if int64(listings) != acknowledged.Load() {
		t.Fatalf("%d spends acknowledged, %d in the ledger", acknowledged.Load(), listings)
	}
	t.Logf("%d spends acknowledged through a restart and a freeze, %d answers 503", acknowledged.Load(), unavailable.Load())

	// The projector recovered by itself: the profile shows the ledger.
	a, err := e.repo().Replay(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		p, err := e.deps.Reader.Profile(ctx, s.ID)
		if err == nil && p.CreditsAvailable == a.Balance(time.Now()) && p.ListingsCreated == int64(listings) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the projector did not recover: profile %+v (%v), ledger balance %d", p, err, a.Balance(time.Now()))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r := e.do(request{method: "GET", path: "/readyz"}); r.status != http.StatusOK {
		t.Fatalf("readyz after the outage = %d %s", r.status, r.body)
	}
}
