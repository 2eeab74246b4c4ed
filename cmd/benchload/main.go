// Command benchload is `make bench-load`: the desktop API's spend path under
// load, side by side with the SQL floor, in one run, on a durable server.
//
//	go run ./cmd/benchload -server URL [-api bin/api] [-projector bin/projector] [-floor ../shared/perf] [-seconds 8]
//
// On a fresh database of the server at URL it starts the built bin/api and
// bin/projector, creates sellers with credits and drives POST /v1/listings
// with 1, 4, 16 and 64 concurrent clients for a fixed time each, running
// the floor (perf/spend.sql under pgbench) against the same server right
// after each level. Per level it prints spends/s, the ratio to the floor,
// p50/p99, the append-to-read-table lag p99 and the non-201 answers. Then:
// an idle account's spend after a 15 s projector outage under load, a
// spend beside a 25 s transaction open in another database, and a profiles
// rebuild in events/s. It is a benchmark: it asserts nothing, and refuses to
// run on a server with fsync or synchronous_commit off.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/pgpool"
	"github.com/a2e-automation/app/migrations"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchload:", err)
		os.Exit(1)
	}
}

type options struct {
	server, api, projector, floor string
	seconds                       int
	levels                        []int
	pprof                         string
	sellers                       int
}

func run() error {
	var o options
	var levels string
	flag.StringVar(&o.server, "server", os.Getenv("BENCH_DATABASE_URL"), "a PostgreSQL URL of the server to use (a fresh database is made on it)")
	flag.StringVar(&o.api, "api", "bin/api", "the built API")
	flag.StringVar(&o.projector, "projector", "bin/projector", "the built projector")
	flag.StringVar(&o.floor, "floor", "../shared/perf", "directory of floor-schema.sql and spend.sql")
	flag.IntVar(&o.seconds, "seconds", 8, "seconds per level")
	flag.StringVar(&levels, "clients", "1,4,16,64", "concurrent clients per level")
	flag.IntVar(&o.sellers, "sellers", 128, "sellers (one API key each) the clients spread over")
	flag.StringVar(&o.pprof, "pprof", "", "directory: save bin/api's and bin/projector's CPU profiles of the last level there")
	flag.Parse()
	for _, l := range strings.Split(levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(l))
		if err != nil || n <= 0 {
			return fmt.Errorf("-clients: %q", l)
		}
		o.levels = append(o.levels, n)
	}
	if o.server == "" {
		return errors.New("-server (or BENCH_DATABASE_URL) is required")
	}
	ctx := context.Background()
	db, drop, err := freshDatabase(ctx, o.server)
	if err != nil {
		return err
	}
	defer drop()
	if err := migrations.Apply(ctx, db); err != nil {
		return err
	}
	pool, err := pgpool.New(ctx, db, pgpool.Options{MaxConns: 4})
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := durable(ctx, pool); err != nil {
		return err
	}
	host, _ := os.Hostname()
	var version string
	_ = pool.QueryRow(ctx, `SHOW server_version`).Scan(&version)
	fmt.Printf("bench-load on %s: PostgreSQL %s (fsync on, synchronous_commit on), %d s a level, %d sellers, lag sampled every %v\n\n",
		host, version, o.seconds, o.sellers, lagResolution)

	keys, err := seed(ctx, pool, o.sellers+2)
	if err != nil {
		return err
	}
	env := append(os.Environ(), "APP_ENV=development", "DATABASE_URL="+db, "RATE_LIMIT_PER_MINUTE=1000000000", "METRICS_ADDR=off", "LOG_LEVEL=info")
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	apiEnv := env
	metricsAddr := ""
	if o.pprof != "" {
		if metricsAddr, err = freeAddr(); err != nil {
			return err
		}
		apiEnv = append(slices.Clone(env), "METRICS_ADDR="+metricsAddr)
	}
	api, err := startProc(o.api, []string{"-addr", addr, "-mail-sender=false"}, apiEnv, "listening on")
	if err != nil {
		return err
	}
	defer api.kill()
	projectorMetrics := ""
	if o.pprof != "" {
		if projectorMetrics, err = freeAddr(); err != nil {
			return err
		}
	}
	projector, err := startProc(o.projector, []string{"-metrics-addr", projectorMetrics}, env, "projector running")
	if err != nil {
		return err
	}
	defer func() { projector.kill() }()
	base := "http://" + addr
	if err := floorSchema(ctx, pool, o.floor); err != nil {
		return err
	}

	fmt.Println("| clients | spends/s via /v1/listings | floor tx/s (same server, right after) | ratio | p50 / p99 | lag p99 (append → profiles) | non-201 |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for i, c := range o.levels {
		var profiled chan error
		if o.pprof != "" && i == len(o.levels)-1 {
			profiled = make(chan error, 1)
			go func() {
				errs := make(chan error, 2)
				go func() { errs <- saveProfile(metricsAddr, o.pprof, fmt.Sprintf("api-%dclients.pprof", c), o.seconds-1) }()
				go func() {
					errs <- saveProfile(projectorMetrics, o.pprof, fmt.Sprintf("projector-%dclients.pprof", c), o.seconds-1)
				}()
				profiled <- errors.Join(<-errs, <-errs)
			}()
		}
		res := load(ctx, pool, base, keys[:o.sellers], c, time.Duration(o.seconds)*time.Second)
		if profiled != nil {
			if err := <-profiled; err != nil {
				return err
			}
		}
		floor, err := pgbench(db, o.floor, c, o.seconds)
		if err != nil {
			return err
		}
		fmt.Printf("| %d | %.0f | %.0f | %.2f× | %s / %s | %s | %d |\n", c, res.rate, floor, res.rate/floor,
			ms(res.p50), ms(res.p99), ms(res.lagP99), res.non201)
	}

	// A 15 s projector outage under load, then one spend on an idle account.
	idle := keys[o.sellers]
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { loadUntil(base, keys[:o.sellers], 16, stop) })
	time.Sleep(2 * time.Second)
	projector.kill()
	time.Sleep(15 * time.Second)
	var backlog int64
	_ = pool.QueryRow(ctx, `SELECT coalesce(max(global_position), 0) - coalesce((SELECT position FROM projection_watermarks WHERE projection = 'profiles'), 0) FROM events`).Scan(&backlog)
	if projector, err = startProc(o.projector, []string{"-metrics-addr", ""}, env, "projector running"); err != nil {
		close(stop)
		wg.Wait()
		return err
	}
	// The spend is made as the projector comes back: how long until it is in
	// profiles is how long after the restart.
	took, err := spendAndWait(ctx, pool, base, idle)
	close(stop)
	wg.Wait()
	if err != nil {
		return err
	}
	fmt.Printf("\nAfter a 15 s projector outage under load (16 clients, backlog %d events): an idle account's spend, made at the restart, reached profiles %s later.\n",
		backlog, ms(took))

	// A 25 s transaction open in another database of the same server.
	other, err := pgx.Connect(ctx, o.server)
	if err != nil {
		return err
	}
	long, err := other.Begin(ctx)
	if err != nil {
		return err
	}
	if _, err := long.Exec(ctx, `SELECT pg_current_xact_id()`); err != nil {
		return err
	}
	time.Sleep(time.Second)
	took, err = spendAndWait(ctx, pool, base, keys[o.sellers+1])
	_ = long.Rollback(ctx)
	_ = other.Close(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("Beside a transaction open in another database: a spend reached profiles in %s.\n", ms(took))

	// A profiles rebuild.
	var events int64
	_ = pool.QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&events)
	cmd := exec.Command(o.projector, "-rebuild", "profiles", "-metrics-addr", "")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("rebuild: %v\n%s", err, out)
	}
	m := rebuiltLine.FindSubmatch(out)
	if m == nil {
		return fmt.Errorf("the rebuild printed no time:\n%s", out)
	}
	d, err := time.ParseDuration(string(m[1]))
	if err != nil {
		return err
	}
	fmt.Printf("Rebuild of profiles (bin/projector -rebuild, its own time): %d events in %s, %.0f events/s.\n", events, d, float64(events)/d.Seconds())
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

// freshDatabase makes database bench_<unix> on the server and returns its
// URL and a function that drops it.
func freshDatabase(ctx context.Context, server string) (string, func(), error) {
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		return "", nil, err
	}
	name := fmt.Sprintf("bench_%d", time.Now().Unix())
	if _, err := conn.Exec(ctx, `CREATE DATABASE `+name); err != nil {
		_ = conn.Close(ctx)
		return "", nil, err
	}
	url, err := pgpool.WithDatabase(server, name)
	drop := func() {
		_, _ = conn.Exec(context.Background(), `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
		_ = conn.Close(context.Background())
	}
	return url, drop, err
}

func durable(ctx context.Context, pool *pgxpool.Pool) error {
	var fsync, sync string
	if err := pool.QueryRow(ctx, `SELECT current_setting('fsync'), current_setting('synchronous_commit')`).Scan(&fsync, &sync); err != nil {
		return err
	}
	if fsync != "on" || sync != "on" {
		return fmt.Errorf("the server runs with fsync=%s synchronous_commit=%s: figures must come with durability on", fsync, sync)
	}
	return nil
}

// seed makes n sellers with a billion credits each and returns their keys.
func seed(ctx context.Context, pool *pgxpool.Pool, n int) ([]string, error) {
	keys, err := apikeys.New(config.DevelopmentSecret) // the processes run in development
	if err != nil {
		return nil, err
	}
	repo := accounts.NewRepository(eventstore.New(pool), nil)
	var out []string
	for i := range n {
		s, err := repo.Register(ctx, keys, fmt.Sprintf("bench-%d@example.com", i), "no-password", eventstore.Metadata{Actor: "bench"})
		if err != nil {
			return nil, err
		}
		if _, err := repo.Update(ctx, s.AccountID, eventstore.UpdateOptions{Metadata: eventstore.Metadata{Actor: "bench"}},
			func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
				return nil, a.GrantCredits(domain.CreditsGranted{Amount: 1_000_000_000, Source: domain.SourcePromo}, now)
			}); err != nil {
			return nil, err
		}
		out = append(out, s.APIKey)
	}
	return out, nil
}

type result struct {
	rate       float64
	p50, p99   time.Duration
	lagP99     time.Duration
	non201     int64
	spends     int64
	latencies  []time.Duration
	lagSamples []time.Duration
}

var client = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 256}}

var seq atomic.Int64

func spend(base, key string) (int, error) {
	req, _ := http.NewRequest(http.MethodPost, base+"/v1/listings", strings.NewReader(`{"amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", key)
	req.Header.Set("Idempotency-Key", fmt.Sprintf("bench-%d", seq.Add(1)))
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, nil
}

// load runs c clients for d and samples the lag meanwhile.
func load(ctx context.Context, pool *pgxpool.Pool, base string, keys []string, c int, d time.Duration) *result {
	r := &result{}
	var mu sync.Mutex
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for i := range c {
		wg.Go(func() {
			var mine []time.Duration
			for n := 0; time.Now().Before(deadline); n++ {
				start := time.Now()
				status, err := spend(base, keys[(i+n*c)%len(keys)])
				mine = append(mine, time.Since(start))
				if err != nil || status != http.StatusCreated {
					atomic.AddInt64(&r.non201, 1)
					continue
				}
				atomic.AddInt64(&r.spends, 1)
			}
			mu.Lock()
			r.latencies = append(r.latencies, mine...)
			mu.Unlock()
		})
	}
	stopLag := make(chan struct{})
	lagDone := make(chan struct{})
	go func() { defer close(lagDone); sampleLag(ctx, pool, r, stopLag) }()
	start := time.Now()
	wg.Wait()
	elapsed := time.Since(start)
	close(stopLag)
	<-lagDone
	r.rate = float64(r.spends) / elapsed.Seconds()
	r.p50, r.p99 = pct(r.latencies, 50), pct(r.latencies, 99)
	r.lagP99 = pct(r.lagSamples, 99)
	return r
}

// lagResolution is how often sampleLag notes the log's head and looks at
// the profiles watermark: the lag it reports is exact to about this much.
const lagResolution = 10 * time.Millisecond

// sampleLag notes the log's head every lagResolution and how long the
// profiles watermark takes to pass it. It holds a connection of its own, so
// no other use of the pool delays a look.
func sampleLag(ctx context.Context, pool *pgxpool.Pool, r *result, stop <-chan struct{}) {
	type sample struct {
		head int64
		at   time.Time
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "lag sampler:", err)
		return
	}
	defer conn.Release()
	var pending []sample
	t := time.NewTicker(lagResolution)
	defer t.Stop()
	stopped := false
	for {
		var head, wm int64
		_ = conn.QueryRow(ctx, `SELECT coalesce(max(global_position), 0), coalesce((SELECT position FROM projection_watermarks WHERE projection = 'profiles'), 0) FROM events`).Scan(&head, &wm)
		now := time.Now()
		kept := pending[:0]
		for _, s := range pending {
			if wm >= s.head {
				r.lagSamples = append(r.lagSamples, now.Sub(s.at))
			} else {
				kept = append(kept, s)
			}
		}
		pending = kept
		if !stopped {
			pending = append(pending, sample{head, now})
		}
		if stopped && (len(pending) == 0 || now.Sub(pending[0].at) > 30*time.Second) {
			for _, s := range pending {
				r.lagSamples = append(r.lagSamples, now.Sub(s.at))
			}
			return
		}
		select {
		case <-stop:
			stopped = true
		case <-t.C:
		}
	}
}

func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

func loadUntil(base string, keys []string, c int, stop <-chan struct{}) {
	var wg sync.WaitGroup
	for i := range c {
		wg.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				_, _ = spend(base, keys[(i+n*c)%len(keys)])
			}
		})
	}
	wg.Wait()
}

// spendAndWait spends on key's account and waits until profiles shows it.
func spendAndWait(ctx context.Context, pool *pgxpool.Pool, base, key string) (time.Duration, error) {
	var id string
	if err := pool.QueryRow(ctx, `SELECT account_id::text FROM api_keys WHERE key_hash = $1`, apikeys.Hash(key)).Scan(&id); err != nil {
		return 0, err
	}
	var before int64
	_ = pool.QueryRow(ctx, `SELECT listings_created FROM profiles WHERE account_id = $1`, id).Scan(&before)
	start := time.Now()
	if status, err := spend(base, key); err != nil || status != http.StatusCreated {
		return 0, fmt.Errorf("spend: %d %v", status, err)
	}
	for time.Since(start) < 5*time.Minute {
		var n int64
		_ = pool.QueryRow(ctx, `SELECT listings_created FROM profiles WHERE account_id = $1`, id).Scan(&n)
		if n > before {
			return time.Since(start), nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	return 0, errors.New("the spend never reached profiles")
}

func floorSchema(ctx context.Context, pool *pgxpool.Pool, dir string) error {
	sql, err := os.ReadFile(filepath.Join(dir, "floor-schema.sql"))
	if err != nil {
		return fmt.Errorf("the floor: %w", err)
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	_, err = conn.Conn().PgConn().Exec(ctx, string(sql)).ReadAll()
	return err
}

var rebuiltLine = regexp.MustCompile(`rebuilt \S+ in (\S+)`)

var tpsLine = regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`)

// pgbench runs the floor with c clients for seconds and returns its tx/s.
func pgbench(db, dir string, c, seconds int) (float64, error) {
	cmd := exec.Command("pgbench", pgpool.WithoutPoolParams(db), "-n", "-f", filepath.Join(dir, "spend.sql"), "-D", "accounts=1000",
		"-c", strconv.Itoa(c), "-j", strconv.Itoa(min(c, 2)), "-T", strconv.Itoa(seconds))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("pgbench: %v\n%s", err, out)
	}
	m := tpsLine.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("pgbench printed no tps:\n%s", out)
	}
	return strconv.ParseFloat(string(m[1]), 64)
}

type proc struct{ cmd *exec.Cmd }

func (p *proc) kill() {
	if p != nil && p.cmd.Process != nil {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
	}
}

// startProc runs bin until it prints ready.
func startProc(bin string, args, env []string, ready string) (*proc, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	found := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(out)
		var seen bytes.Buffer
		for sc.Scan() {
			if strings.Contains(sc.Text(), ready) {
				found <- nil
				_, _ = io.Copy(io.Discard, out)
				return
			}
			seen.WriteString(sc.Text() + "\n")
		}
		found <- fmt.Errorf("%s exited before %q:\n%s", filepath.Base(bin), ready, seen.String())
	}()
	select {
	case err := <-found:
		if err != nil {
			return nil, err
		}
		return &proc{cmd: cmd}, nil
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("%s did not start", bin)
	}
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// saveProfile saves bin/api's CPU profile over seconds to dir/name.
func saveProfile(metricsAddr, dir, name string, seconds int) error {
	resp, err := http.Get(fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", metricsAddr, max(seconds, 1)))
	if err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	defer resp.Body.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(f, resp.Body)
	return err
}
