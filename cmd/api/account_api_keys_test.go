package main

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// keysOf lists s's keys through GET /api/api-keys.
func (e *testEnv) keysOf(s seeded) []apiKeyResponse {
	e.t.Helper()
	var keys []apiKeyResponse
	r := e.do(request{method: "GET", path: "/api/api-keys", cookie: s.Cookie})
	if r.status != 200 {
		e.t.Fatalf("GET /api/api-keys = %d %s", r.status, r.body)
	}
	r.json(e.t, &keys)
	return keys
}

// createKey makes a named live key through POST /api/api-keys.
func (e *testEnv) createKey(s seeded, body map[string]any) apiKeyResponse {
	e.t.Helper()
	var k apiKeyResponse
	r := e.do(request{method: "POST", path: "/api/api-keys", body: body, cookie: s.Cookie})
	if r.status != 201 {
		e.t.Fatalf("POST /api/api-keys %v = %d %s", body, r.status, r.body)
	}
	r.json(e.t, &k)
	return k
}

func spendWith(e *testEnv, key string) response {
	return e.do(request{method: "POST", path: "/v1/listings", body: map[string]string{"amazonUrl": productURL},
		header: map[string]string{"X-API-Key": key}})
}

// The existing key is "Default"; a second named key spends from the same
// balance; each spend's event names its key (name and prefix, never the
// key); regenerate and the profile's apiKey keep working on the Default key.
func TestNamedKeysShareOneBalance(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("named-keys@example.com")
	e.waitFor(accountstest.Do(t, e.repo(), s.ID, accountstest.Grant(10, domain.SourcePurchase, nil)).LastPosition)

	keys := e.keysOf(s)
	if len(keys) != 1 || keys[0].Name != "Default" || !keys[0].IsDefault || keys[0].APIKey != s.APIKey || keys[0].Mode != "live" ||
		!strings.HasPrefix(s.APIKey, keys[0].Prefix) {
		t.Fatalf("keys of a new account: %+v", keys)
	}
	laptop := e.createKey(s, map[string]any{"name": "Laptop"})
	if laptop.Name != "Laptop" || laptop.Mode != "live" || !strings.HasPrefix(laptop.APIKey, laptop.Prefix) || laptop.APIKey == s.APIKey {
		t.Fatalf("created key: %+v", laptop)
	}
	expect(t, "a spend with the Default key", spendWith(e, s.APIKey), 201, "")
	expect(t, "a spend with the Laptop key", spendWith(e, laptop.APIKey), 201, "")
	// Last used: gathered in memory, written in bulk by the flusher.
	if err := e.deps.APIKeys.FlushUsed(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, k := range e.keysOf(s) {
		if k.LastUsedAt == nil {
			t.Fatalf("key %s has no lastUsedAt after a spend", k.Name)
		}
	}
	acc, err := e.repo().FromSnapshot(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if bal := acc.Balance(e.repo().Now()); bal != 8 {
		t.Fatalf("balance %d, want 8", bal)
	}
	rows, err := e.deps.Pool.Query(context.Background(), `SELECT coalesce(data->'spent', data)->>'keyName', coalesce(data->'spent', data)->>'keyPrefix', data::text FROM events
		WHERE stream_id = $1 AND `+spendEvents+` ORDER BY global_position`, "account-"+s.ID)
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for rows.Next() {
		var name, prefix, data string
		if err := rows.Scan(&name, &prefix, &data); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(data, s.APIKey) || strings.Contains(data, laptop.APIKey) {
			t.Fatalf("a spend event holds a key: %s", data)
		}
		named = append(named, name+" "+prefix)
	}
	if want := []string{"Default " + keys[0].Prefix, "Laptop " + laptop.Prefix}; strings.Join(named, ",") != strings.Join(want, ",") {
		t.Fatalf("spends name %v, want %v", named, want)
	}

	r := e.do(request{method: "POST", path: "/api/user/api-key/regenerate", cookie: s.Cookie})
	var regen regenerateResponse
	r.json(t, &regen)
	if r.status != 200 || regen.APIKey == "" {
		t.Fatalf("regenerate = %d %s", r.status, r.body)
	}
	var p struct{ APIKey string }
	e.do(request{method: "GET", path: "/api/user/profile", cookie: s.Cookie}).json(t, &p)
	if p.APIKey != regen.APIKey {
		t.Fatalf("profile apiKey %q, want the regenerated key", p.APIKey)
	}
	expect(t, "the old Default key", spendWith(e, s.APIKey), 401, "Invalid API key")
	expect(t, "the Laptop key after a regeneration", spendWith(e, laptop.APIKey), 201, "")
	keys = e.keysOf(s)
	if len(keys) != 2 || keys[0].APIKey != regen.APIKey || keys[0].Name != "Default" || keys[1].ID != laptop.ID {
		t.Fatalf("keys after regenerate: %+v", keys)
	}
}

// A key rotated with a grace works on both API processes until the grace
// ends, then both refuse it (metered and free calls) within a second,
// although both still remember it; a revoked key is refused by both at once.
func TestRotationGraceAndRevocationOnTwoProcesses(t *testing.T) {
	cfg := testConfig(t)
	url := testdb.NewURL(t)
	a := newTestEnvOn(t, cfg, url, testdb.Pool(t, url))
	b := newTestEnvOn(t, cfg, url, testdb.Pool(t, url))
	s := a.seedAccount("rotate-grace@example.com")
	a.waitFor(accountstest.Do(t, a.repo(), s.ID, accountstest.Grant(50, domain.SourcePurchase, nil)).LastPosition)
	pc := a.createKey(s, map[string]any{"name": "PC 1"})
	other := a.createKey(s, map[string]any{"name": "PC 2"})
	for _, e := range []*testEnv{a, b} {
		expect(t, "PC 1 before the rotation", spendWith(e, pc.APIKey), 201, "")
		expect(t, "PC 2 before the revocation", spendWith(e, other.APIKey), 201, "")
	}

	const grace = 2 * time.Second
	var rotated apiKeyResponse
	r := a.do(request{method: "POST", path: "/api/api-keys/" + pc.ID + "/rotate", body: map[string]any{"graceSeconds": 2}, cookie: s.Cookie})
	if r.status != 200 {
		t.Fatalf("rotate = %d %s", r.status, r.body)
	}
	rotatedAt := time.Now()
	r.json(t, &rotated)
	if rotated.Name != "PC 1" || rotated.APIKey == "" || rotated.APIKey == pc.APIKey {
		t.Fatalf("rotated key: %+v", rotated)
	}
	for _, e := range []*testEnv{a, b} {
		expect(t, "the old key in its grace", spendWith(e, pc.APIKey), 201, "")
		expect(t, "the new key", spendWith(e, rotated.APIKey), 201, "")
	}
	if keys := a.keysOf(s); len(keys) != 4 || keys[len(keys)-1].GraceEndsAt == nil && keys[1].GraceEndsAt == nil {
		t.Fatalf("keys in the grace: %+v", keys)
	}

	r = b.do(request{method: "DELETE", path: "/api/api-keys/" + other.ID, cookie: s.Cookie})
	if r.status != 204 {
		t.Fatalf("revoke = %d %s", r.status, r.body)
	}
	for _, e := range []*testEnv{a, b} {
		expect(t, "the revoked key", spendWith(e, other.APIKey), 401, "Invalid API key")
		expect(t, "the revoked key's free read", e.do(request{method: "GET", path: "/v1/account", header: map[string]string{"X-API-Key": other.APIKey}}), 401, "Invalid API key")
	}

	time.Sleep(time.Until(rotatedAt.Add(grace)))
	deadline := time.Now().Add(time.Second)
	for _, e := range []*testEnv{a, b} {
		r := spendWith(e, pc.APIKey)
		if r.status != 401 || errorBodyOf(t, "after the grace", r).Code != CodeAPIKeyInvalid {
			t.Fatalf("the old key after its grace = %d %s", r.status, r.body)
		}
		expect(t, "the old key's free read after its grace", e.do(request{method: "GET", path: "/v1/account", header: map[string]string{"X-API-Key": pc.APIKey}}), 401, "")
		expect(t, "the new key after the grace", spendWith(e, rotated.APIKey), 201, "")
	}
	if time.Now().After(deadline) {
		t.Fatal("refusing the old key took over a second")
	}
	// The sweeper records the end of the grace as an event and drops the row.
	if n, err := a.deps.App.Commands.ExpireAPIKeys.Handle(context.Background(), command.ExpireAPIKeys{Limit: 10}); err != nil || n != 1 {
		t.Fatalf("sweep: %d %v", n, err)
	}
	var events []string
	rows, err := a.deps.Pool.Query(context.Background(), `SELECT event_type FROM events WHERE stream_id = $1 AND event_type LIKE 'APIKey%' ORDER BY global_position`, "account-"+s.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var ty string
		if err := rows.Scan(&ty); err != nil {
			t.Fatal(err)
		}
		events = append(events, ty)
	}
	if got := strings.Join(events, ","); got != "APIKeyIssued,APIKeyCreated,APIKeyCreated,APIKeyRotated,APIKeyRevoked,APIKeyExpired" {
		t.Fatalf("key events %s", got)
	}
	if keys := a.keysOf(s); len(keys) != 2 || keys[1].ID != rotated.ID {
		t.Fatalf("keys after the sweep: %+v", keys)
	}
}

// A key with an expiry works until then, then is refused; the sweeper
// records APIKeyExpired.
func TestKeyExpiry(t *testing.T) {
	e := newTestEnv(t)
	s := e.seedAccount("key-expiry@example.com")
	e.waitFor(accountstest.Do(t, e.repo(), s.ID, accountstest.Grant(5, domain.SourcePurchase, nil)).LastPosition)
	at := time.Now().Add(2 * time.Second).Truncate(time.Second).Add(time.Second)
	k := e.createKey(s, map[string]any{"name": "Short", "expiresAt": at.UTC().Format(time.RFC3339)})
	if k.ExpiresAt == nil || *k.ExpiresAt != at.UTC().Format(time.RFC3339) {
		t.Fatalf("expiresAt %v", k.ExpiresAt)
	}
	expect(t, "before its expiry", spendWith(e, k.APIKey), 201, "")
	time.Sleep(time.Until(at))
	r := spendWith(e, k.APIKey)
	if r.status != 401 || errorBodyOf(t, "expired", r).Code != CodeAPIKeyInvalid {
		t.Fatalf("after its expiry = %d %s", r.status, r.body)
	}
	if n, err := e.deps.App.Commands.ExpireAPIKeys.Handle(context.Background(), command.ExpireAPIKeys{Limit: 10}); err != nil || n != 1 {
		t.Fatalf("sweep: %d %v", n, err)
	}
	var reason string
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT data->>'reason' FROM events WHERE stream_id = $1 AND event_type = 'APIKeyExpired'`,
		"account-"+s.ID).Scan(&reason); err != nil || reason != domain.KeyExpiredReasonExpiry {
		t.Fatalf("APIKeyExpired reason %q %v", reason, err)
	}
	if n, _ := e.deps.App.Commands.ExpireAPIKeys.Handle(context.Background(), command.ExpireAPIKeys{Limit: 10}); n != 0 {
		t.Fatalf("a second sweep visited %d accounts", n)
	}
}

// Bad input is a 400 naming the field, and changes nothing.
func TestAPIKeyBadInput(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("key-input@example.com")
	k := e.createKey(s, map[string]any{"name": "One"})
	for _, c := range []struct {
		what, path, field string
		body              any
	}{
		{"an unknown mode", "/api/api-keys", "mode", map[string]any{"name": "x", "mode": "prod"}},
		{"a mode that is no string", "/api/api-keys", "mode", map[string]any{"name": "x", "mode": 1}},
		{"an empty name", "/api/api-keys", "name", map[string]any{"name": "  "}},
		{"a 200-character name", "/api/api-keys", "name", map[string]any{"name": strings.Repeat("n", 200)}},
		{"an expiry in the past", "/api/api-keys", "expiresAt", map[string]any{"name": "x", "expiresAt": "2020-01-01T00:00:00Z"}},
		{"an expiry that is no date", "/api/api-keys", "expiresAt", map[string]any{"name": "x", "expiresAt": "tomorrow"}},
		{"a grace over a day", "/api/api-keys/" + k.ID + "/rotate", "graceSeconds", map[string]any{"graceSeconds": 86401}},
		{"a negative grace", "/api/api-keys/" + k.ID + "/rotate", "graceSeconds", map[string]any{"graceSeconds": -1}},
		{"no grace", "/api/api-keys/" + k.ID + "/rotate", "graceSeconds", map[string]any{}},
	} {
		r := e.do(request{method: "POST", path: c.path, body: c.body, cookie: s.Cookie})
		if r.status != 400 || errorBodyOf(t, c.what, r).Errors[c.field] == "" {
			t.Errorf("%s = %d %s, want 400 naming %s", c.what, r.status, r.body, c.field)
		}
	}
	for i := 3; i <= 10; i++ {
		e.createKey(s, map[string]any{"name": "Key " + string(rune('0'+i%10))})
	}
	r := e.do(request{method: "POST", path: "/api/api-keys", body: map[string]any{"name": "Eleventh"}, cookie: s.Cookie})
	if r.status != 400 || errorBodyOf(t, "an 11th key", r).Errors["name"] == "" {
		t.Fatalf("an 11th key = %d %s", r.status, r.body)
	}
	if n := len(e.keysOf(s)); n != 10 {
		t.Fatalf("%d keys, want 10", n)
	}
	expect(t, "revoking the Default key", e.do(request{method: "DELETE", path: "/api/api-keys/" + e.keysOf(s)[0].ID, cookie: s.Cookie}), 409, "")
	expect(t, "revoking an unknown key", e.do(request{method: "DELETE", path: "/api/api-keys/nope", cookie: s.Cookie}), 404, "")
	expect(t, "rotating an unknown key", e.do(request{method: "POST", path: "/api/api-keys/nope/rotate", body: map[string]any{"graceSeconds": 0}, cookie: s.Cookie}), 404, "")
	other := e.seedAccount("key-input-other@example.com")
	expect(t, "revoking another account's key", e.do(request{method: "DELETE", path: "/api/api-keys/" + k.ID, cookie: other.Cookie}), 404, "")
}

// A key revoked while 8 clients spend with it on two API processes: no
// spend that starts after the revocation answered succeeds, the Default key
// keeps working, and the balance fell by exactly the spends answered 201.
func TestRevokeUnderLoad(t *testing.T) {
	cfg := testConfig(t, func(c *config.Config) { c.RateLimitPerMinute = 1 << 20 })
	url := testdb.NewURL(t)
	a := newTestEnvOn(t, cfg, url, testdb.Pool(t, url))
	b := newTestEnvOn(t, cfg, url, testdb.Pool(t, url))
	s := a.seedAccount("revoke-load@example.com")
	a.waitFor(accountstest.Do(t, a.repo(), s.ID, accountstest.Grant(1000, domain.SourcePurchase, nil)).LastPosition)
	k := a.createKey(s, map[string]any{"name": "Busy"})

	type call struct {
		start  time.Time
		status int
	}
	var (
		mu      sync.Mutex
		calls   []call
		revoked time.Time
		wg      sync.WaitGroup
	)
	stop := make(chan struct{})
	for i := range 8 {
		e := []*testEnv{a, b}[i%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				start := time.Now()
				r := spendWith(e, k.APIKey)
				mu.Lock()
				calls = append(calls, call{start, r.status})
				mu.Unlock()
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	r := b.do(request{method: "DELETE", path: "/api/api-keys/" + k.ID, cookie: s.Cookie})
	revoked = time.Now()
	if r.status != 204 {
		t.Fatalf("revoke under load = %d %s", r.status, r.body)
	}
	time.Sleep(300 * time.Millisecond)
	close(stop)
	wg.Wait()

	ok, after := 0, 0
	for _, c := range calls {
		switch {
		case c.status == 201:
			ok++
			if c.start.After(revoked) {
				t.Errorf("a spend started %v after the revocation answered succeeded", c.start.Sub(revoked))
			}
		case c.status == 401, c.status == 429: // 429: refused keys from one address past 20 (refuseAPIKey)
			after++
		default:
			t.Errorf("a spend answered %d", c.status)
		}
	}
	t.Logf("%d spends succeeded before the revocation, %d were refused after it", ok, after)
	if ok == 0 || after == 0 {
		t.Fatalf("%d spends succeeded and %d were refused: the load did not straddle the revocation", ok, after)
	}
	expect(t, "the Default key after the revocation", spendWith(a, s.APIKey), 201, "")
	acc, err := a.repo().FromSnapshot(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if bal := acc.Balance(a.repo().Now()); bal != int64(1000-ok-1) {
		t.Fatalf("balance %d after %d spends answered 201 (and one with the Default key), want %d", bal, ok, 1000-ok-1)
	}
}

// spendEvents is the SQL condition on events of a spend: a CreditsSpent, or
// a listing or VeRO check that carries its charge (domain.SpendOf).
const spendEvents = `(event_type = 'CreditsSpent' OR (event_type IN ('ListingRequested', 'VeroCheckPerformed') AND data ? 'spent'))`
