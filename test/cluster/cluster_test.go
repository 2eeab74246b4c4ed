// Package cluster_test runs the product as it is scaled out: two bin/api
// processes and two bin/projector workers over NATS JetStream, sharing one
// PostgreSQL and one Redis, and checks that they behave as one.
package cluster_test

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
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/testing/natstest"
	"github.com/a2e-automation/app/internal/testing/redistest"
	"github.com/a2e-automation/app/internal/testing/systest"
	"github.com/a2e-automation/app/internal/testing/testbin"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// rateLimit is the processes' RATE_LIMIT_PER_MINUTE.
const rateLimit = 20

// proc is one process of the cluster, restartable on the same address.
type proc struct {
	t      *testing.T
	name   string
	bin    string
	args   []string
	env    []string
	ready  func(io.Reader) (string, error)
	log    *os.File
	stop   func()
	killed atomic.Bool
}

func (p *proc) start() {
	p.t.Helper()
	fmt.Fprintf(p.log, "--- start %s\n", p.name)
	var seen bytes.Buffer
	_, stop, err := testbin.StartEnv(p.bin, p.args, p.env, p.log, func(r io.Reader) (string, error) {
		return p.ready(io.TeeReader(r, &seen))
	}, time.Minute)
	if err != nil {
		p.t.Fatalf("%s: %v\n%s", p.name, err, seen.String())
	}
	p.stop = stop
	p.t.Cleanup(p.kill)
}

// kill stops the process at once (SIGKILL), as a crash would.
func (p *proc) kill() {
	if p.stop != nil {
		p.stop()
		p.stop = nil
	}
}

// printed waits for a line containing want.
func printed(want string) func(io.Reader) (string, error) {
	return func(r io.Reader) (string, error) {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if strings.Contains(sc.Text(), want) {
				return "", nil
			}
		}
		return "", fmt.Errorf("exited before printing %q", want)
	}
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// client talks to the APIs.
type client struct {
	t    *testing.T
	http *http.Client
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func (c *client) do(base, method, path string, body any, header map[string]string) (answer, error) {
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, base+path, r)
	if err != nil {
		return answer{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return answer{status: res.StatusCode, header: res.Header, body: b}, err
}

// seller is an account made through the API with credits bought through
// the simulated provider.
type seller struct {
	email, cookie, apiKey string
}

func newSeller(t *testing.T, c *client, base string, n int, credits int) seller {
	t.Helper()
	s := seller{email: fmt.Sprintf("cluster-%d-%d@example.com", n, time.Now().UnixNano())}
	a, err := c.do(base, "POST", "/api/register", map[string]string{"email": s.email, "password": "correct-horse-battery"}, nil)
	if err != nil || a.status != http.StatusCreated {
		t.Fatalf("register = %d %s (%v)", a.status, a.body, err)
	}
	for _, ck := range (&http.Response{Header: a.header}).Cookies() {
		if ck.Name == "a2e_session" { // not the signed-out hint the answer also clears
			s.cookie = ck.Name + "=" + ck.Value
		}
	}
	cookie := map[string]string{"Cookie": s.cookie}
	verifyEmail(t, c, base, s.email, cookie) // payments need a verified address
	a, err = c.do(base, "GET", "/api/user/profile", nil, cookie)
	var profile struct{ APIKey string }
	if err != nil || a.status != http.StatusOK || json.Unmarshal(a.body, &profile) != nil || profile.APIKey == "" {
		t.Fatalf("profile = %d %s (%v)", a.status, a.body, err)
	}
	s.apiKey = profile.APIKey
	if credits > 0 {
		a, err = c.do(base, "POST", "/api/credits/purchase", map[string]int{"creditAmount": credits}, cookie)
		var co struct{ ClientSecret string }
		if err != nil || a.status != http.StatusOK || json.Unmarshal(a.body, &co) != nil {
			t.Fatalf("purchase = %d %s (%v)", a.status, a.body, err)
		}
		a, err = c.do(base, "POST", "/api/dev/payments/confirm", map[string]string{"clientSecret": co.ClientSecret, "outcome": "succeeded"}, cookie)
		if err != nil || a.status != http.StatusOK {
			t.Fatalf("confirm = %d %s (%v)", a.status, a.body, err)
		}
	}
	return s
}

// verifyEmail enters the code mailed to email (the development mailbox,
// which every API process reads from the database).
func verifyEmail(t *testing.T, c *client, base, email string, cookie map[string]string) {
	t.Helper()
	code := regexp.MustCompile(`\b\d{6}\b`)
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		a, err := c.do(base, "GET", "/api/dev/mail?to="+url.QueryEscape(email), nil, nil)
		var mails []struct{ Text string }
		if err == nil && a.status == http.StatusOK && json.Unmarshal(a.body, &mails) == nil {
			for _, m := range mails {
				if found := code.FindString(m.Text); found != "" {
					v, err := c.do(base, "POST", "/api/auth/verify-email", map[string]string{"code": found}, cookie)
					if err != nil || v.status != http.StatusOK {
						t.Fatalf("verify-email = %d %s (%v)", v.status, v.body, err)
					}
					return
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no verification code mailed to %s", email)
		}
	}
}

func TestTwoAPIsAndTwoProjectorsBehaveAsOne(t *testing.T) {
	if testing.Short() {
		t.Skip("starts four processes, PostgreSQL, NATS and Redis")
	}
	apiBin, projectorBin := systest.BuildBinaries(t)
	dbURL := testdb.NewURL(t)
	env := append(os.Environ(), "APP_ENV=development", "DATABASE_URL="+dbURL, "REDIS_URL="+redistest.URL(t),
		"MESSAGE_TRANSPORT=nats", "NATS_URL="+natstest.URL(t), fmt.Sprintf("RATE_LIMIT_PER_MINUTE=%d", rateLimit),
		"METRICS_ADDR=127.0.0.1:0", "LOG_LEVEL=info")
	logFile, err := os.Create(filepath.Join(t.TempDir(), "cluster.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if t.Failed() {
			_ = logFile.Sync()
			out, _ := os.ReadFile(logFile.Name())
			if len(out) > 20000 {
				out = out[len(out)-20000:]
			}
			t.Logf("cluster log (tail):\n%s", out)
		}
	}()
	var apis []*proc
	var bases []string
	for i := range 2 {
		addr := freeAddr(t)
		p := &proc{t: t, name: fmt.Sprintf("api-%d", i), bin: apiBin, args: []string{"-addr", addr}, env: env, log: logFile, ready: printed("listening on")}
		p.start()
		apis = append(apis, p)
		bases = append(bases, "http://"+addr)
	}
	var projectors []*proc
	for i := range 2 {
		p := &proc{t: t, name: fmt.Sprintf("projector-%d", i), bin: projectorBin, env: append(env, "PROJECTOR_METRICS_ADDR=off"), log: logFile, ready: printed("projector running")}
		p.start()
		projectors = append(projectors, p)
	}
	c := &client{t: t, http: &http.Client{Timeout: 30 * time.Second}}

	// A key's limit holds across both APIs: exactly the limit, not twice.
	limited := newSeller(t, c, bases[0], 0, 0)
	allowed := 0
	burst := time.Now()
	for i := range 2 * rateLimit {
		a, err := c.do(bases[i%2], "GET", "/v1/account", nil, map[string]string{"X-API-Key": limited.apiKey})
		if err != nil {
			t.Fatal(err)
		}
		if a.status == http.StatusOK {
			allowed++
		} else if a.status != http.StatusTooManyRequests {
			t.Fatalf("GET /v1/account = %d %s", a.status, a.body)
		}
	}
	// The limit, plus one call for every minute/limit the burst took (the
	// bucket refills steadily): never twice the limit.
	refill := int(time.Since(burst) / (time.Minute / rateLimit))
	if allowed < rateLimit || allowed > rateLimit+refill {
		t.Fatalf("two APIs let %d calls through a limit of %d (refill during the burst: %d)", allowed, rateLimit, refill)
	}

	// No overdraft across both: 10 credits, 18 concurrent spends.
	poor := newSeller(t, c, bases[1], 1, 10)
	var created, refused atomic.Int32
	var wg sync.WaitGroup
	for i := range 18 {
		wg.Go(func() {
			a, err := c.do(bases[i%2], "POST", "/v1/listings", map[string]string{"amazonUrl": "https://www.amazon.com/dp/B08N5WRWNW"},
				map[string]string{"X-API-Key": poor.apiKey, "Idempotency-Key": fmt.Sprintf("poor-%d", i)})
			switch {
			case err != nil:
				t.Error(err)
			case a.status == http.StatusCreated:
				created.Add(1)
			case a.status == http.StatusPaymentRequired:
				refused.Add(1)
			default:
				t.Errorf("spend = %d %s", a.status, a.body)
			}
		})
	}
	wg.Wait()
	if created.Load() != 10 || refused.Load() != 8 {
		t.Fatalf("10 credits and 18 spends across two APIs: %d created, %d refused", created.Load(), refused.Load())
	}

	// Load from several sellers while one API and one projector are killed
	// and restarted. A client that loses its API retries the same request,
	// with the same key, on the other.
	var sellers []seller
	for i := range 6 {
		sellers = append(sellers, newSeller(t, c, bases[i%2], 10+i, 100))
	}
	type spend struct {
		seller seller
		key    string
		body   []byte
	}
	var doneMu sync.Mutex
	var done []spend
	stopLoad := make(chan struct{})
	for si, s := range sellers {
		wg.Go(func() {
			for i := 0; i < 15; i++ {
				select {
				case <-stopLoad:
					return
				default:
				}
				key := fmt.Sprintf("load-%d-%d", si, i)
				for attempt := 0; ; attempt++ {
					a, err := c.do(bases[(si+i+attempt)%2], "POST", "/v1/listings", map[string]string{"amazonUrl": "https://www.amazon.com/dp/B08N5WRWNW"},
						map[string]string{"X-API-Key": s.apiKey, "Idempotency-Key": key})
					if err == nil && a.status == http.StatusCreated {
						doneMu.Lock()
						done = append(done, spend{seller: s, key: key, body: a.body})
						doneMu.Unlock()
						break
					}
					if attempt == 100 || (err == nil && a.status != http.StatusServiceUnavailable && a.status != http.StatusTooManyRequests) {
						t.Errorf("spend %s: %v %d %s", key, err, a.status, a.body)
						break
					}
					time.Sleep(200 * time.Millisecond)
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
	time.Sleep(600 * time.Millisecond)
	apis[1].kill()
	projectors[0].kill()
	time.Sleep(time.Second)
	apis[1].start()
	projectors[0].start()
	wg.Wait()
	close(stopLoad)
	if len(done) != 6*15 {
		t.Fatalf("%d spends acknowledged, want %d", len(done), 6*15)
	}

	// Idempotency replays work through either API: the same answer, byte
	// for byte, and no second charge.
	for i, d := range done[:10] {
		a, err := c.do(bases[i%2], "POST", "/v1/listings", map[string]string{"amazonUrl": "https://www.amazon.com/dp/B08N5WRWNW"},
			map[string]string{"X-API-Key": d.seller.apiKey, "Idempotency-Key": d.key})
		if err != nil || a.status != http.StatusCreated || a.header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(a.body, d.body) {
			t.Fatalf("replay of %s = %d %s (%v)", d.key, a.status, a.body, err)
		}
	}

	pool, err := pgxpool.New(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	ctx := context.Background()
	var listings int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE event_type = 'ListingRequested'`).Scan(&listings); err != nil {
		t.Fatal(err)
	}
	if listings != 10+6*15 {
		t.Fatalf("%d listings in the ledger; %d were acknowledged", listings, 10+6*15)
	}

	// The read tables, once caught up, equal a rebuild from zero.
	systest.RequireRebuildEqual(t, pool, projectorBin, env)
}
