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
	login := func(e *testEnv) response {
		return e.do(request{method: "POST", path: "/api/login", body: map[string]string{"email": "someone@example.com", "password": testPassword}})
	}
	r := login(b)
	if r.status != http.StatusServiceUnavailable || r.message(t) != msgSignInDown || r.header.Get("Retry-After") == "" {
		t.Fatalf("sign-in with Redis down = %d %s (want fail closed)", r.status, r.body)
	}
	// Issue 25, item 10: each answer names what is unavailable.
	for path, want := range map[string]string{
		"/api/register":                     msgSignUpDown,
		"/api/auth/reset-password":          msgResetDown,
		"/api/auth/reset-password/complete": msgResetDown,
	} {
		r := b.do(request{method: "POST", path: path, body: map[string]string{"email": "someone@example.com", "password": testPassword}})
		if r.status != http.StatusServiceUnavailable || r.message(t) != want || r.header.Get("Retry-After") == "" {
			t.Errorf("%s with Redis down = %d %s, want 503 %q", path, r.status, r.body, want)
		}
	}
	redis.Set(faultproxy.Up)
	// The breaker opened: it asks Redis again after its cooldown.
	recovered := time.Now().Add(15 * time.Second)
	for login(b).status != http.StatusUnauthorized {
		if time.Now().After(recovered) {
			t.Fatal("sign-in did not come back with Redis")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Issue 25, item 10: a frozen Redis (connections open, no answers) costs
// each request its timeouts only until the circuit breaker opens; then
// the desktop API goes through and sign-in is refused in microseconds.
func TestFrozenRedisCostsMicroseconds(t *testing.T) {
	redis := faultproxy.Start(t, strings.TrimPrefix(redistest.URL(t), "redis://"))
	e := newTestEnv(t, func(c *config.Config) { c.RedisURL = "redis://" + redis.Addr() })
	s := e.seedAccount("frozen@example.com")
	account := func() response {
		return e.do(request{method: "GET", path: "/v1/account", header: map[string]string{"X-API-Key": s.APIKey}})
	}
	if r := account(); r.status != http.StatusOK {
		t.Fatalf("GET /v1/account = %d %s", r.status, r.body)
	}
	redis.Set(faultproxy.Frozen)
	for range 3 { // the breaker's trips, each waiting for Redis's timeouts
		if r := account(); r.status != http.StatusOK {
			t.Fatalf("GET /v1/account with Redis frozen = %d %s (want fail open)", r.status, r.body)
		}
	}
	start := time.Now()
	for range 20 {
		if r := account(); r.status != http.StatusOK {
			t.Fatalf("GET /v1/account with the circuit open = %d %s", r.status, r.body)
		}
	}
	login := e.do(request{method: "POST", path: "/api/login", body: map[string]string{"email": "someone@example.com", "password": testPassword}})
	if took := time.Since(start); took > 400*time.Millisecond {
		t.Fatalf("21 requests with the circuit open took %v (each should cost no Redis timeout)", took)
	}
	if login.status != http.StatusServiceUnavailable || login.message(t) != msgSignInDown {
		t.Fatalf("sign-in with the circuit open = %d %s", login.status, login.body)
	}
	redis.Set(faultproxy.Up)
}
