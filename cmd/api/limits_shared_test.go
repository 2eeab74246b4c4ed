package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/testing/faultproxy"
	"github.com/a2e-automation/app/internal/testing/redistest"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// Two API servers on one database and one Redis behave as one: a key gets
// its limit once, not once per process; an account throttled on one is
// throttled on the other. With Redis away, the desktop API fails open and
// sign-in fails closed.
func TestLimitsSharedThroughRedis(t *testing.T) {
	redis := faultproxy.Start(t, strings.TrimPrefix(redistest.URL(t), "redis://"))
	cfg := testConfig(t, func(c *config.Config) { c.RedisURL, c.RateLimitPerMinute = "redis://"+redis.Addr(), 6 })
	url := testdb.NewURL(t)
	a := newTestEnvOn(t, cfg, url, testdb.Pool(t, url))
	b := newTestEnvOn(t, cfg, url, testdb.Pool(t, url))
	s := a.seedAccount("shared@example.com")

	account := func(e *testEnv) response {
		return e.do(request{method: "GET", path: "/v1/account", header: map[string]string{"X-API-Key": s.APIKey}})
	}
	ok := 0
	burst := time.Now()
	for i := range 12 {
		e := a
		if i%2 == 1 {
			e = b
		}
		r := account(e)
		switch r.status {
		case http.StatusOK:
			ok++
		case http.StatusTooManyRequests:
			if r.header.Get("Retry-After") == "" || r.header.Get("X-RateLimit-Remaining") != "0" {
				t.Fatalf("429 without its headers: %v", r.header)
			}
		default:
			t.Fatalf("GET /v1/account = %d %s", r.status, r.body)
		}
	}
	// The limit, plus one call per 10 s the burst took (the bucket refills
	// steadily): never twice the limit.
	if refill := int(time.Since(burst) / (10 * time.Second)); ok < 6 || ok > 6+refill {
		t.Fatalf("two processes let %d of 12 calls through a limit of 6 (refill during the burst: %d)", ok, refill)
	}

	// Ten wrong passwords on one process lock the account on the other too.
	acc := a.register("throttled@example.com")
	signIn := func(e *testEnv, password string) response {
		return e.do(request{method: "POST", path: "/api/login", body: map[string]string{"email": acc.Email, "password": password}})
	}
	for range accountAttempts {
		if r := signIn(a, "wrong-password!"); r.status != http.StatusUnauthorized {
			t.Fatalf("wrong password = %d %s", r.status, r.body)
		}
	}
	if r := signIn(b, testPassword); r.status != http.StatusTooManyRequests {
		t.Fatalf("the right password on the other process after %d failures = %d %s", accountAttempts, r.status, r.body)
	}

	redis.Set(faultproxy.Down)
	other := a.seedAccount("redis-down@example.com")
	if r := a.do(request{method: "GET", path: "/v1/account", header: map[string]string{"X-API-Key": other.APIKey}}); r.status != http.StatusOK {
		t.Fatalf("desktop call with Redis down = %d %s (want fail open)", r.status, r.body)
	}
	if n := testutil.ToFloat64(a.deps.Limits.errors.WithLabelValues("desktop", "allowed")); n < 1 {
		t.Fatalf("ratelimit_store_errors_total{desktop,allowed} = %v", n)
	}
	r := b.do(request{method: "POST", path: "/api/login", body: map[string]string{"email": "someone@example.com", "password": testPassword}})
	if r.status != http.StatusServiceUnavailable || r.message(t) != msgLimitsDown || r.header.Get("Retry-After") == "" {
		t.Fatalf("sign-in with Redis down = %d %s (want fail closed)", r.status, r.body)
	}
	redis.Set(faultproxy.Up)
	if r := b.do(request{method: "POST", path: "/api/login", body: map[string]string{"email": "someone@example.com", "password": testPassword}}); r.status != http.StatusUnauthorized {
		t.Fatalf("sign-in with Redis back = %d %s", r.status, r.body)
	}
}
