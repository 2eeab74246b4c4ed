package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/internal/testing/faultproxy"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// prismBin is Prism, installed by `make openapi-deps` (npm ci in test/openapi).
var prismBin = filepath.Join("..", "..", "test", "openapi", "node_modules", ".bin", "prism")

// startPrism runs Prism's validating proxy for openapi.json in front of
// upstream and returns its address. Without Prism the test is skipped,
// except in CI, where that is a failure.
func startPrism(t *testing.T, upstream string) string {
	t.Helper()
	if _, err := os.Stat(prismBin); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("Prism is not installed (%v): make openapi-deps", err)
		}
		t.Skipf("Prism is not installed (%v): make openapi-deps", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var logs bytes.Buffer
	// --errors: a violation of the document is an error answer, not a
	// warning; requests are passed on unchecked, so the server's own
	// refusals of bad input are what is checked.
	cmd := exec.CommandContext(ctx, prismBin, "proxy", "--errors", "--validate-request=false", "-h", "127.0.0.1", "-p", fmt.Sprint(port),
		"openapi.json", upstream)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("prism:\n%s", logs.String())
		}
	})
	addr := fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if res, err := http.Get(addr + "/openapi.json"); err == nil {
			_ = res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return addr
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("Prism did not start:\n%s", logs.String())
		}
	}
}

// freeze opens a payment dispute on account id, which pauses its spending.
func freeze(t testing.TB, e *testEnv, id string) {
	t.Helper()
	res := accountstest.Do(t, e.repo(), id, func(a *domain.Account, now time.Time) error {
		if err := a.RecordPayment(domain.PaymentRecorded{PaymentID: "pi_1", Kind: domain.PaymentKindCredits, Description: "100 credits",
			AmountCents: 999, Status: domain.PaymentPaid}, now); err != nil {
			return err
		}
		return a.OpenDispute("dp_1", "pi_1", 999, now)
	})
	e.waitFor(res.LastPosition)
}

// Every answer the server gives to the conformance cases, successes,
// refusals and outages alike, is one openapi.json describes: the cases
// pass through Prism's validating proxy, which turns any violation (an
// undocumented status, header or body) into an error.
func TestOpenAPIConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Prism")
	}
	dbURL := testdb.NewURL(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := faultproxy.Start(t, u.Host)
	u.Host = proxy.Addr()
	pool, cutter := cutterPool(t, u.String())
	const perMinute = 60
	e := newTestEnvOn(t, testConfig(t, func(c *config.Config) { c.RateLimitPerMinute, c.RequestTimeout = perMinute, 3*time.Second }), u.String(), pool)

	seller := e.seedAccount("seller@example.com")
	e.waitFor(accountstest.Do(t, e.repo(), seller.ID, accountstest.Grant(100, domain.SourcePurchase, nil)).LastPosition)
	poor := e.seedAccount("poor@example.com")
	frozen := e.seedAccount("frozen@example.com")
	freeze(t, e, frozen.ID)
	busy := e.seedAccount("busy@example.com")
	exhaust := func() { // the allowance refills one request a second: use it all up just before
		for range perMinute {
			e.do(request{method: "GET", path: "/v1/account", header: map[string]string{"X-API-Key": busy.APIKey}})
		}
	}
	created := e.do(request{method: "POST", path: "/v1/listings", body: map[string]string{"amazonUrl": productURL},
		header: map[string]string{"X-API-Key": seller.APIKey, "Idempotency-Key": "made"}})
	var listing listingView
	created.json(t, &listing)

	prism := startPrism(t, e.srv.URL+"/v1")
	client := &http.Client{Timeout: 30 * time.Second}
	send := func(what string, want int, method, path, body string, header ...string) {
		t.Helper()
		req, err := http.NewRequest(method, prism+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		defer res.Body.Close()
		var got bytes.Buffer
		_, _ = got.ReadFrom(res.Body)
		if v := res.Header.Get("sl-violations"); v != "" || strings.Contains(got.String(), "stoplight.io/prism/errors") || res.StatusCode != want {
			t.Errorf("%s: %d %s (violations %s), want %d", what, res.StatusCode, got.String(), v, want)
		}
	}
	key := func(a seeded) []string { return []string{"X-API-Key", a.APIKey} }
	spendBody := `{"amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW"}`

	send("the document", 200, "GET", "/openapi.json", "")
	send("the account", 200, "GET", "/account", "", key(seller)...)
	send("the account, a NUL in the query", 400, "GET", "/account?x=%00", "", key(seller)...)
	send("a listing, a NUL in the query", 400, "GET", "/listings/nope?x=%00", "", key(seller)...)
	// A request without X-API-Key is not here: Prism answers it itself
	// (security is checked even with --validate-request=false), so that 401
	// is checked in TestDesktopErrorsCarryCodes.
	send("a wrong key", 401, "GET", "/account", "", "X-API-Key", "a2e_wrong")
	send("a spend", 201, "POST", "/listings", spendBody, append(key(seller), "Idempotency-Key", "k1")...)
	send("its replay", 201, "POST", "/listings", spendBody, append(key(seller), "Idempotency-Key", "k1")...)
	send("the key with another body", 422, "POST", "/listings", `{"amazonUrl":"https://www.amazon.com/dp/B000000001"}`, append(key(seller), "Idempotency-Key", "k1")...)
	send("a bad URL", 400, "POST", "/listings", `{"amazonUrl":"https://example.com"}`, key(seller)...)
	send("an unknown field", 400, "POST", "/listings", `{"amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW","x":1}`, key(seller)...)
	send("a long Idempotency-Key", 400, "POST", "/listings", spendBody, append(key(seller), "Idempotency-Key", strings.Repeat("k", 256))...)
	send("a form", 415, "POST", "/listings", "amazonUrl=x", append(key(seller), "Content-Type", "application/x-www-form-urlencoded")...)
	send("a huge body", 413, "POST", "/listings", `{"amazonUrl":"`+strings.Repeat("x", maxBody)+`"}`, key(seller)...)
	send("no credits", 402, "POST", "/listings", spendBody, key(poor)...)
	send("frozen", 403, "POST", "/listings", spendBody, key(frozen)...)
	send("a VeRO check", 200, "POST", "/vero-checks", `{"brand":"Nike"}`, key(seller)...)
	send("a blank brand", 400, "POST", "/vero-checks", `{"brand":" "}`, key(seller)...)
	send("frozen VeRO", 403, "POST", "/vero-checks", `{"brand":"Nike"}`, key(frozen)...)
	send("the listings", 200, "GET", "/listings", "", key(seller)...)
	send("a page", 200, "GET", "/listings?limit=1", "", key(seller)...)
	send("by key", 200, "GET", "/listings?idempotencyKey=made", "", key(seller)...)
	send("a bad limit", 400, "GET", "/listings?limit=0", "", key(seller)...)
	send("an unknown parameter", 400, "GET", "/listings?bogus=1", "", key(seller)...)
	send("a listing", 200, "GET", "/listings/"+listing.ID, "", key(seller)...)
	send("another seller's listing", 404, "GET", "/listings/"+listing.ID, "", key(poor)...)
	send("no such listing", 404, "GET", "/listings/nope", "", key(seller)...)
	exhaust()
	send("past the limit", 429, "GET", "/account", "", key(busy)...)
	exhaust()
	send("past the limit, spending", 429, "POST", "/listings", spendBody, key(busy)...)

	cutter.armed.Store(true)
	send("a cut COMMIT", 503, "POST", "/listings", spendBody, append(key(seller), "Idempotency-Key", "cut")...)
	cutter.armed.Store(true)
	send("a cut COMMIT, VeRO", 503, "POST", "/vero-checks", `{"brand":"Nike"}`, append(key(seller), "Idempotency-Key", "cut-vero")...)

	proxy.Set(faultproxy.Down)
	pool.Reset()
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/account", ""}, {"POST", "/listings", spendBody}, {"POST", "/vero-checks", `{"brand":"Nike"}`},
		{"GET", "/listings", ""}, {"GET", "/listings/" + listing.ID, ""},
	} {
		send("the database away: "+c.method+" "+c.path, 503, c.method, c.path, c.body, key(seller)...)
	}
	proxy.Set(faultproxy.Up)
}
