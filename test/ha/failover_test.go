package ha_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/devseed"
	"github.com/a2e-automation/app/internal/testing/systest"
)

const (
	clients       = 16
	sellers       = 8 // two clients per seller: their spends contend on one stream
	sellerCredits = 100_000
)

// attempt is one line of the clients' log: a spend sent with a key, and
// what (if anything) came back.
type attempt struct {
	client   int
	seller   int
	key      string
	sent     time.Time
	answered time.Time
	status   int    // 0: no answer (the connection failed or timed out)
	code     string // the error's code
	listing  string // the 201's listing id
}

// TestFailoverUnderLoad loses the primary's machine (kill -9 of its pg_autoctl
// and postmaster, nothing restarts them) while 16 clients spend through
// bin/api with Idempotency-Keys, and checks what pg_auto_failover and the
// product promise: the standby is promoted; every key answered 201 before the
// kill is in the ledger exactly once; every key without an answer, replayed
// with the same key, is charged exactly once; no answer is a 500; no balance
// is negative; the read tables equal a rebuild from the events; the old
// primary rejoins as the standby. It prints the write outage.
func TestFailoverUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a pg_auto_failover cluster, bin/api and bin/projector")
	}
	ha := startCluster(t)
	apiBin, projectorBin := systest.BuildBinaries(t)
	dbURL := ha.env["DATABASE_URL"]
	env := append(os.Environ(), "APP_ENV=development", "DATABASE_URL="+dbURL, "RATE_LIMIT_PER_MINUTE=1000000",
		"LOG_LEVEL=warn")
	if out, err := runWith(env, apiBin, "migrate"); err != nil {
		t.Fatalf("migrate: %v\n%s", err, out)
	}
	logFile, err := os.Create(filepath.Join(t.TempDir(), "processes.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if t.Failed() {
			out, _ := os.ReadFile(logFile.Name())
			if len(out) > 20000 {
				out = out[len(out)-20000:]
			}
			t.Logf("bin/api and bin/projector (tail):\n%s", out)
		}
	}()
	addr, apiMetrics, projectorMetrics := freeAddr(t), freeAddr(t), freeAddr(t)
	startProcess(t, apiBin, []string{"-addr", addr}, append(env, "METRICS_ADDR="+apiMetrics), logFile, "listening on")
	// The projector announces itself at info; the API prints its address.
	startProcess(t, projectorBin, nil, append(env, "LOG_LEVEL=info", "PROJECTOR_METRICS_ADDR="+projectorMetrics), logFile, "projector running")
	base := "http://" + addr

	pool, err := pgxpool.New(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var keys []string
	for i := range sellers {
		s, err := devseed.New(context.Background(), pool, devseed.Options{Credits: sellerCredits,
			Email: fmt.Sprintf("ha-%d-%d@example.com", i, time.Now().UnixNano())})
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, s.APIKey)
	}

	// The load: each client spends with a fresh key as soon as it has an
	// answer; after a refusal it waits 100 ms (a real client would honour
	// Retry-After; the test wants to see the first moment writes work).
	httpc := &http.Client{Timeout: 15 * time.Second}
	var mu sync.Mutex
	var log []attempt
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				a := spend(t, httpc, base, keys[c%sellers], attempt{client: c, seller: c % sellers, key: fmt.Sprintf("c%d-%d", c, i)})
				mu.Lock()
				log = append(log, a)
				mu.Unlock()
				if a.status != http.StatusCreated {
					time.Sleep(100 * time.Millisecond)
				}
			}
		})
	}

	time.Sleep(3 * time.Second)
	// What an operator sees (deploy/prometheus/alerts.yml): one synchronous
	// standby, and every metric the rules use.
	before := scrape(t, apiMetrics)
	requireRuleMetrics(t, before, scrape(t, projectorMetrics))
	if before["db_synchronous_standbys"] != 1 || before["db_metrics_up"] != 1 {
		t.Errorf("before the kill: db_synchronous_standbys %v, db_metrics_up %v", before["db_synchronous_standbys"], before["db_metrics_up"])
	}
	old := ha.primary()
	killedAt := time.Now()
	ha.killNode(old)

	// The standby is promoted, and writes come back through the same URI.
	var promotedAt, firstWrite time.Time
	for deadline := time.Now().Add(2 * time.Minute); promotedAt.IsZero() || firstWrite.IsZero(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			close(stop)
			wg.Wait()
			st, _ := ha.state()
			t.Fatalf("2 minutes after the kill: promoted %v, first write %v; monitor: %v", !promotedAt.IsZero(), !firstWrite.IsZero(), st)
		}
		if promotedAt.IsZero() {
			if st, err := ha.state(); err == nil {
				for name, s := range st {
					if name != old && (strings.HasPrefix(s, "wait_primary/") || strings.HasPrefix(s, "primary/")) {
						promotedAt = time.Now()
					}
				}
			}
		}
		mu.Lock()
		for _, a := range log {
			if a.status == http.StatusCreated && a.sent.After(killedAt) && (firstWrite.IsZero() || a.answered.Before(firstWrite)) {
				firstWrite = a.answered
			}
		}
		mu.Unlock()
	}
	time.Sleep(2 * time.Second)
	close(stop)
	wg.Wait()

	// The client-side log: what was acknowledged before the kill, what had
	// no answer (a 503 of either kind, or none at all).
	var ackedBefore, unanswered []attempt
	statuses := map[string]int{}
	for _, a := range log {
		statuses[fmt.Sprintf("%d %s", a.status, a.code)]++
		switch {
		case a.status == http.StatusCreated && a.answered.Before(killedAt):
			ackedBefore = append(ackedBefore, a)
		case a.status != http.StatusCreated:
			unanswered = append(unanswered, a)
		}
	}
	t.Logf("%d spends sent: %v", len(log), statuses)
	fmt.Printf("failover: primary %s killed; standby promoted after %s; writes back after %s (write outage); %d spends acknowledged before the kill, %d without an answer\n",
		old, promotedAt.Sub(killedAt).Round(time.Millisecond), firstWrite.Sub(killedAt).Round(time.Millisecond), len(ackedBefore), len(unanswered))
	if len(ackedBefore) == 0 {
		t.Fatal("no spend was acknowledged before the kill: the load did not run")
	}

	// Every key without an answer, replayed with the same key, gets its 201.
	final := map[string]attempt{}
	for _, a := range log {
		if a.status == http.StatusCreated {
			final[a.key] = a
		}
	}
	for _, u := range unanswered {
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
			a := spend(t, httpc, base, keys[u.seller], attempt{client: u.client, seller: u.seller, key: u.key})
			if a.status == http.StatusCreated {
				final[a.key] = a
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("replay of %s: still %d %s after a minute", u.key, a.status, a.code)
			}
		}
	}

	// The ledger: each key's listing exactly once, the one answered.
	ctx := context.Background()
	rows, err := pool.Query(ctx, `SELECT metadata->>'idempotencyKey', data->>'listingId' FROM events WHERE event_type = 'ListingRequested'`)
	if err != nil {
		t.Fatal(err)
	}
	inLedger := map[string][]string{}
	for rows.Next() {
		var key, listing string
		if err := rows.Scan(&key, &listing); err != nil {
			t.Fatal(err)
		}
		inLedger[key] = append(inLedger[key], listing)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, a := range ackedBefore {
		if got := inLedger[a.key]; len(got) != 1 || got[0] != a.listing {
			t.Errorf("key %s, answered 201 (%s) before the kill: in the ledger as %v", a.key, a.listing, got)
		}
	}
	for key, a := range final {
		if got := inLedger[key]; len(got) != 1 || got[0] != a.listing {
			t.Errorf("key %s (answered %s): in the ledger as %v", key, a.listing, got)
		}
	}
	if len(inLedger) != len(final) {
		var extra []string
		for key := range inLedger {
			if _, ok := final[key]; !ok {
				extra = append(extra, key)
			}
		}
		sort.Strings(extra)
		t.Errorf("%d keys in the ledger, %d sent; not sent: %v", len(inLedger), len(final), extra)
	}

	// Charged exactly once per listing; no balance below zero.
	rows, err = pool.Query(ctx, `SELECT stream_id,
			count(*) FILTER (WHERE event_type = 'ListingRequested'),
			coalesce(sum((coalesce(data->'spent', data)->>'amount')::bigint) FILTER (WHERE event_type = 'CreditsSpent' OR (event_type IN ('ListingRequested', 'VeroCheckPerformed') AND data ? 'spent')), 0)
		FROM events GROUP BY stream_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var stream string
		var listings, spent int64
		if err := rows.Scan(&stream, &listings, &spent); err != nil {
			t.Fatal(err)
		}
		if listings != spent || spent > sellerCredits {
			t.Errorf("%s: %d listings, %d credits spent of %d", stream, listings, spent, sellerCredits)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	systest.WaitCaughtUp(t, pool)
	var negative int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM profiles WHERE credits_available < 0`).Scan(&negative); err != nil || negative != 0 {
		t.Fatalf("%d profiles below zero (%v)", negative, err)
	}
	systest.RequireRebuildEqual(t, pool, projectorBin, env)

	// The lost node comes back (its pg_autoctl started again) and rejoins as
	// the synchronous standby of the new primary.
	rejoin := time.Now()
	ha.up()
	st, err := ha.state()
	if err != nil || st[old] != "secondary/secondary" {
		t.Fatalf("after restarting %s: %v (%v)", old, st, err)
	}
	// pg_rewind fails on some kills (PostgreSQL 15 refuses its single-user
	// crash recovery beside standby.signal) and pg_autoctl clones instead:
	// ha-up.sh's CHECKPOINT keeps that clone to seconds (it waited for a
	// spread checkpoint, minutes, before).
	how := "rewound"
	if logged, err := os.ReadFile(filepath.Join(ha.dir, "log", old+".log")); err != nil {
		how = fmt.Sprintf("how: %v", err)
	} else if bytes.Contains(logged, []byte("trying pg_basebackup instead")) {
		how = "cloned with pg_basebackup (pg_rewind failed)"
	}
	t.Logf("%s rejoined as the standby in %s (%s)", old, time.Since(rejoin).Round(time.Millisecond), how)
	// The promotion moved the timeline (FailoverHappened), and the pair is
	// synchronous again (NoSynchronousStandby clears).
	if after := scrape(t, apiMetrics); after["db_timeline_id"] <= before["db_timeline_id"] || after["db_synchronous_standbys"] != 1 {
		t.Errorf("after the failover and rejoin: timeline %v (was %v), synchronous standbys %v",
			after["db_timeline_id"], before["db_timeline_id"], after["db_synchronous_standbys"])
	}
	if a := spend(t, httpc, base, keys[0], attempt{key: "after-rejoin"}); a.status != http.StatusCreated {
		t.Fatalf("a spend after the rejoin = %d %s", a.status, a.code)
	}
}

// spend sends POST /v1/listings with a's key and fills in the answer. A
// failover may answer 503 (with Retry-After) or nothing; anything else but
// a 201 is an error of the test.
func spend(t *testing.T, c *http.Client, base, apiKey string, a attempt) attempt {
	body := []byte(`{"amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW"}`)
	req, err := http.NewRequest(http.MethodPost, base+"/v1/listings", bytes.NewReader(body))
	if err != nil {
		t.Error(err)
		return a
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", apiKey)
	req.Header.Set("Idempotency-Key", a.key)
	a.sent = time.Now()
	res, err := c.Do(req)
	a.answered = time.Now()
	if err != nil {
		return a // no answer
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	a.status = res.StatusCode
	var answer struct {
		ID   string `json:"id"`
		Code string `json:"code"`
	}
	_ = json.Unmarshal(data, &answer)
	a.listing, a.code = answer.ID, answer.Code
	switch res.StatusCode {
	case http.StatusCreated:
		if a.listing == "" {
			t.Errorf("spend %s: 201 without a listing id: %s", a.key, data)
		}
	case http.StatusServiceUnavailable:
		if res.Header.Get("Retry-After") == "" || (a.code != "service_unavailable" && a.code != "commit_outcome_unknown") {
			t.Errorf("spend %s: 503 %s without Retry-After or with code %q", a.key, data, a.code)
		}
	default:
		t.Errorf("spend %s during a failover = %d %s; want 201 or 503", a.key, res.StatusCode, data)
	}
	return a
}

func freeAddr(t *testing.T) string {
	port := freePorts(t, 1)
	return fmt.Sprintf("127.0.0.1:%d", port)
}

func runWith(env []string, bin string, args ...string) ([]byte, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	return cmd.CombinedOutput()
}
