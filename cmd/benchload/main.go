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
// p50/p99, the append-to-read-table lag p99, the non-201 answers and the
// projector's CPU per event (/proc/<pid>/stat). Then:
// an idle account's spend after a 15 s projector outage under load, a
// spend beside a 25 s transaction open in another database, and a profiles
// rebuild in events/s. It is a benchmark: it asserts nothing, and refuses to
// run on a server with fsync or synchronous_commit off.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

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
	levelsOnly, outageOnly        bool
	sellers                       int
	compare                       string // a second server, run side by side (compare.go)
	compareAPI, compareProjector  string // with compare: the second server's builds ("": -api's and -projector's)
	rounds                        int    // with compare: rounds per level, alternating the servers
}

func run() error {
	o, err := parseOptions()
	if err != nil {
		return err
	}
	ctx := context.Background()
	if o.compare != "" {
		return runCompare(ctx, o)
	}
	b, cleanup, err := start(ctx, o)
	defer cleanup()
	if err != nil {
		return err
	}
	if o.outageOnly {
		return b.projectorOutage(ctx)
	}
	if err := b.levels(ctx); err != nil {
		return err
	}
	if o.levelsOnly {
		return nil
	}
	if err := b.projectorOutage(ctx); err != nil {
		return err
	}
	if err := b.besideLongTransaction(ctx); err != nil {
		return err
	}
	return b.rebuild(ctx)
}

func parseOptions() (options, error) {
	var o options
	var levels string
	flag.StringVar(&o.server, "server", os.Getenv("BENCH_DATABASE_URL"), "a PostgreSQL URL of the server to use (a fresh database is made on it)")
	flag.StringVar(&o.api, "api", "bin/api", "the built API: the binary, or a script that execs it (its CPU, memory and stop go by the pid started)")
	flag.StringVar(&o.projector, "projector", "bin/projector", "the built projector (as -api: the binary, or a script that execs it)")
	flag.StringVar(&o.floor, "floor", "../shared/perf", "directory of floor-schema.sql and spend.sql")
	flag.IntVar(&o.seconds, "seconds", 8, "seconds per level")
	flag.StringVar(&levels, "clients", "1,4,16,64", "concurrent clients per level")
	flag.IntVar(&o.sellers, "sellers", 128, "sellers (one API key each) the clients spread over")
	flag.StringVar(&o.pprof, "pprof", "", "directory: save bin/api's and bin/projector's CPU profiles of each level there (api-<n>clients.pprof, projector-<n>clients.pprof) and bin/api's allocations over the level (api-<n>clients.allocs.pprof)")
	flag.StringVar(&o.compare, "compare", os.Getenv("BENCH_COMPARE_DATABASE_URL"), "a second server's PostgreSQL URL: run the levels against both side by side, rounds interleaved, and print, for each level, both sides' spends/s and their ratio, latency, server CPU per spend, floor, group commits and load average (the levels only)")
	flag.StringVar(&o.compareAPI, "compare-api", "", "with -compare: the API build the second server runs (default -api): an A/B of two builds side by side, rounds interleaved (as -api: the binary, or a script that execs it)")
	flag.StringVar(&o.compareProjector, "compare-projector", "", "with -compare: the projector build the second server runs (default -projector; as -api: the binary, or a script that execs it)")
	flag.BoolVar(&o.levelsOnly, "levels-only", false, "run the levels alone: no projector outage, long transaction or rebuild (quicker A/B runs of -api/-projector builds)")
	flag.BoolVar(&o.outageOnly, "outage-only", false, "run the projector outage alone (no levels, long transaction or rebuild): quicker A/B runs of the catch-up; with -pprof, the restarted projector's CPU profile of its first 2 s (projector-catchup.pprof)")
	flag.IntVar(&o.rounds, "rounds", 4, "with -compare: rounds per level; each round runs -seconds/rounds against the first server, then as long against the second")
	flag.Parse()
	if o.rounds <= 0 || o.seconds < o.rounds {
		return o, fmt.Errorf("-rounds %d: want 1 to -seconds", o.rounds)
	}
	for _, l := range strings.Split(levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(l))
		if err != nil || n <= 0 {
			return o, fmt.Errorf("-clients: %q", l)
		}
		o.levels = append(o.levels, n)
	}
	if o.server == "" {
		return o, errors.New("-server (or BENCH_DATABASE_URL) is required")
	}
	if o.compare == "" && (o.compareAPI != "" || o.compareProjector != "") {
		return o, errors.New("-compare-api and -compare-projector need -compare (a second server)")
	}
	return o, nil
}

// bench is one run: a fresh database with its sellers, and the API and
// projector started on it.
type bench struct {
	o                             options
	db                            string // the fresh database's URL
	pool                          *pgxpool.Pool
	keys                          []string
	env                           []string
	base, metricsAddr, projMetric string
	api, projector                *proc
}

// start makes the fresh database, seeds it and starts the processes;
// cleanup stops and drops what was made, also after an error.
func start(ctx context.Context, o options) (b *bench, cleanup func(), err error) {
	var undo []func()
	cleanup = func() {
		for _, f := range slices.Backward(undo) {
			f()
		}
	}
	b = &bench{o: o}
	db, drop, err := freshDatabase(ctx, o.server)
	if err != nil {
		return nil, cleanup, err
	}
	b.db, undo = db, append(undo, drop)
	if err := migrations.Apply(ctx, db); err != nil {
		return nil, cleanup, err
	}
	if b.pool, err = pgpool.New(ctx, db, pgpool.Options{MaxConns: 4}); err != nil {
		return nil, cleanup, err
	}
	undo = append(undo, b.pool.Close)
	if err := durable(ctx, b.pool); err != nil {
		return nil, cleanup, err
	}
	host, _ := os.Hostname()
	var version string
	_ = b.pool.QueryRow(ctx, `SHOW server_version`).Scan(&version)
	fmt.Printf("bench-load on %s: PostgreSQL %s (fsync on, synchronous_commit on), %d s a level, %d sellers, lag sampled every %v\n\n",
		host, version, o.seconds, o.sellers, lagResolution)

	if b.keys, err = seed(ctx, b.pool, o.sellers+2); err != nil {
		return nil, cleanup, err
	}
	b.env = append(os.Environ(), "APP_ENV=development", "DATABASE_URL="+db, "RATE_LIMIT_PER_MINUTE=1000000000", "METRICS_ADDR=off", "PROJECTOR_METRICS_ADDR=off", "LOG_LEVEL=info")
	addr, err := freeAddr()
	if err != nil {
		return nil, cleanup, err
	}
	// The API's metrics endpoint: its group commit counters, and profiles.
	if b.metricsAddr, err = freeAddr(); err != nil {
		return nil, cleanup, err
	}
	apiEnv := append(slices.Clone(b.env), "METRICS_ADDR="+b.metricsAddr)
	if b.api, err = startProc(o.api, []string{"-addr", addr, "-mail-sender=false"}, apiEnv, "listening on"); err != nil {
		return nil, cleanup, err
	}
	undo = append(undo, func() { b.api.kill() })
	projectorEnv := b.env
	if o.pprof != "" {
		if b.projMetric, err = freeAddr(); err != nil {
			return nil, cleanup, err
		}
		projectorEnv = append(slices.Clone(b.env), "PROJECTOR_METRICS_ADDR="+b.projMetric)
	}
	if b.projector, err = startProc(o.projector, nil, projectorEnv, "projector running"); err != nil {
		return nil, cleanup, err
	}
	undo = append(undo, func() { b.projector.kill() }) // the one running then
	b.base = "http://" + addr
	return b, cleanup, floorSchema(ctx, b.pool, o.floor)
}

// levels drives each level of clients, then the floor at the same level,
// and prints the throughput table, the CPU per operation and the group
// commits.
func (b *bench) levels(ctx context.Context) error {
	o, pool := b.o, b.pool
	meter := newCPUMeter(ctx, pool, func() int { return b.api.cmd.Process.Pid }, func() int { return b.projector.cmd.Process.Pid })
	var cpuRows, serverRows, batches []string
	fmt.Println("| clients | spends/s via /v1/listings | floor tx/s (same server, right after) | ratio | p50 / p99 | lag p99 (append → profiles) | non-201 | projector CPU per event |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, c := range o.levels {
		var profiled chan error
		if o.pprof != "" {
			profiled = b.profile(c, o.seconds-1)
		}
		before := meter.sample(ctx)
		gc0 := groupCommits(b.metricsAddr)
		events := startMeter(ctx, pool, b.projector)
		res := load(ctx, pool, b.base, b.keys[:o.sellers], c, time.Duration(o.seconds)*time.Second)
		used := meter.sample(ctx).sub(before)
		cpuPerEvent, _ := events.perEvent(ctx, pool)
		gc1 := groupCommits(b.metricsAddr)
		commits := gc1.commits - gc0.commits
		batch := fmt.Sprintf("%d clients: %.0f group commits/s, %.1f spends each, %.1f ms each", c,
			commits/float64(o.seconds), (gc1.commands-gc0.commands)/max(commits, 1), 1000*(gc1.seconds-gc0.seconds)/max(commits, 1))
		if hits, misses := gc1.cacheHits-gc0.cacheHits, gc1.cacheMisses-gc0.cacheMisses; hits+misses > 0 {
			batch += fmt.Sprintf(", accounts from the cache %.1f %%", 100*hits/(hits+misses))
		}
		if res.spends > 0 && gc1.allocBytes > 0 {
			batch += fmt.Sprintf(", the API allocated %.1f kB in %.0f objects a spend",
				(gc1.allocBytes-gc0.allocBytes)/1000/float64(res.spends), (gc1.mallocs-gc0.mallocs)/float64(res.spends))
		}
		if gcs := gc1.gcs - gc0.gcs; gc1.gcs > 0 {
			batch += fmt.Sprintf(", %.0f collections (%.1f a second)", gcs, gcs/float64(o.seconds))
		}
		if rss, peak := memoryOf(b.api.cmd.Process.Pid); rss > 0 {
			batch += fmt.Sprintf(", the API's RSS %.0f MiB at the level's end (its peak so far %.0f MiB)", rss, peak)
		}
		batches = append(batches, batch)
		if profiled != nil {
			if err := <-profiled; err != nil {
				return err
			}
		}
		before = meter.sample(ctx)
		floor, err := pgbench(b.db, o.floor, c, o.seconds)
		if err != nil {
			return err
		}
		floorUsed := meter.sample(ctx).sub(before)
		fmt.Printf("| %d | %.0f | %.0f | %.2f× | %s / %s | %s | %d | %s |\n", c, res.rate, floor.tps, res.rate/floor.tps,
			ms(res.p50), ms(res.p99), ms(res.lagP99), res.non201, us(cpuPerEvent))
		cpuRows = append(cpuRows, cpuRow(c, used, res.spends, floorUsed, floor))
		serverRows = append(serverRows, serverRow(c, used, res.spends, floorUsed, floor))
	}
	fmt.Println("\nCPU per operation, ms (from /proc: each process's user + system time over the level. PostgreSQL is every process of the server, exited backends included: its backends for the API's and the projector's connections, and the rest (WAL writer, checkpointer, the lag sampler's backend). The load generator is this process, with its lag sampler. Machine is every core's busy time, whatever ran):")
	fmt.Println()
	fmt.Println("| clients | spend: API | its PG backends | projector | its PG backends | other PG | load generator | sum | machine | floor tx: PostgreSQL | pgbench | sum | machine |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, row := range cpuRows {
		fmt.Println(row)
	}
	fmt.Println("\nServer CPU per spend (bin/api + bin/projector + every PostgreSQL process) against PostgreSQL's CPU per floor transaction, ms; the load generator apart:")
	fmt.Println()
	fmt.Println("| clients | server per spend | PostgreSQL per floor tx | ratio | load generator per spend |")
	fmt.Println("|---|---|---|---|---|")
	for _, row := range serverRows {
		fmt.Println(row)
	}
	fmt.Printf("\nGroup commits (bin/api's group_commits_total, group_commit_commands_total and group_commit_seconds_total over each level: a commit's time is from its first statement to its answer): %s.\n", strings.Join(batches, "; "))
	return nil
}

// profile saves the API's and the projector's CPU profiles over the next
// seconds, the level of c clients.
func (b *bench) profile(c, seconds int) chan error {
	profiled := make(chan error, 1)
	go func() {
		errs := make(chan error, 3)
		go func() {
			errs <- saveProfile(b.metricsAddr, "profile", b.o.pprof, fmt.Sprintf("api-%dclients.pprof", c), seconds)
		}()
		go func() {
			errs <- saveProfile(b.metricsAddr, "allocs", b.o.pprof, fmt.Sprintf("api-%dclients.allocs.pprof", c), seconds)
		}()
		go func() {
			errs <- saveProfile(b.projMetric, "profile", b.o.pprof, fmt.Sprintf("projector-%dclients.pprof", c), seconds)
		}()
		profiled <- errors.Join(<-errs, <-errs, <-errs)
	}()
	return profiled
}

// cpuRow is a level's line of the CPU table.
func cpuRow(c int, used cpuSample, spends int64, floorUsed cpuSample, floor floorRun) string {
	byParts := used.api + used.projector + used.pg + used.loadgen
	floorParts := floorUsed.pg + floor.cpu
	return fmt.Sprintf("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |", c,
		perOp(used.api, spends), perOp(used.pgAPI, spends), perOp(used.projector, spends), perOp(used.pgProjector, spends),
		perOp(used.pg-used.pgAPI-used.pgProjector, spends), perOp(used.loadgen, spends),
		perOp(byParts, spends), perOp(used.machine, spends),
		perOp(floorUsed.pg, floor.transactions), perOp(floor.cpu, floor.transactions),
		perOp(floorParts, floor.transactions), perOp(floorUsed.machine, floor.transactions))
}

// serverRow is a level's line of the server CPU table: what the server
// spends per spend (the API, the projector and every PostgreSQL process)
// against what PostgreSQL spends per floor transaction.
func serverRow(c int, used cpuSample, spends int64, floorUsed cpuSample, floor floorRun) string {
	server := used.api + used.projector + used.pg
	ratio := "n/a"
	if spends > 0 && floor.transactions > 0 && floorUsed.pg > 0 {
		ratio = fmt.Sprintf("%.2f×", (float64(server)/float64(spends))/(float64(floorUsed.pg)/float64(floor.transactions)))
	}
	return fmt.Sprintf("| %d | %s | %s | %s | %s |", c, perOp(server, spends), perOp(floorUsed.pg, floor.transactions), ratio, perOp(used.loadgen, spends))
}

// projectorOutage stops the projector for 15 s under load, then spends on
// an idle account as it comes back and prints how long until the spend is
// in profiles, and how fast the backlog was worked off.
func (b *bench) projectorOutage(ctx context.Context) error {
	o, pool := b.o, b.pool
	idle := b.keys[o.sellers]
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { loadUntil(b.base, b.keys[:o.sellers], 16, stop) })
	time.Sleep(2 * time.Second)
	b.projector.kill()
	time.Sleep(15 * time.Second)
	var backlog int64
	_ = pool.QueryRow(ctx, `SELECT coalesce(max(global_position), 0) - coalesce((SELECT position FROM projection_watermarks WHERE projection = 'profiles'), 0) FROM events`).Scan(&backlog)
	var err error
	env := b.env
	if o.pprof != "" {
		env = append(slices.Clone(b.env), "PROJECTOR_METRICS_ADDR="+b.projMetric)
	}
	if b.projector, err = startProc(o.projector, nil, env, "projector running"); err != nil {
		close(stop)
		wg.Wait()
		return err
	}
	// The spend is made as the projector comes back: how long until it is in
	// profiles is how long after the restart. Meanwhile: how fast the
	// projector works the backlog off while the load goes on.
	backlogMeter := startMeter(ctx, pool, b.projector)
	profiled := make(chan error, 1)
	if o.pprof != "" {
		go func() { profiled <- saveProfile(b.projMetric, "profile", o.pprof, "projector-catchup.pprof", 2) }()
	} else {
		profiled <- nil
	}
	drained := make(chan catchUp, 1)
	go func() { drained <- drain(ctx, pool, backlogMeter) }()
	took, err := spendAndWait(ctx, pool, b.base, idle)
	cu := <-drained
	close(stop)
	wg.Wait()
	if err := <-profiled; err != nil {
		fmt.Println("catch-up profile:", err)
	}
	if err != nil {
		return err
	}
	fmt.Printf("\nAfter a 15 s projector outage under load (16 clients, backlog %d events): an idle account's spend, made at the restart, reached profiles %s later.\n",
		backlog, ms(took))
	fmt.Printf("Catch-up under that load: %d events passed in %s until the backlog of the restart was applied, %.0f events/s, projector CPU %s per event.\n",
		cu.events, ms(cu.took), float64(cu.events)/cu.took.Seconds(), us(cu.cpuPerEvent))
	return nil
}

// besideLongTransaction spends while a transaction stays open in another
// database of the same server.
func (b *bench) besideLongTransaction(ctx context.Context) error {
	other, err := pgx.Connect(ctx, b.o.server)
	if err != nil {
		return err
	}
	defer func() { _ = other.Close(ctx) }()
	long, err := other.Begin(ctx)
	if err != nil {
		return err
	}
	if _, err := long.Exec(ctx, `SELECT pg_current_xact_id()`); err != nil {
		return err
	}
	time.Sleep(time.Second)
	took, err := spendAndWait(ctx, b.pool, b.base, b.keys[b.o.sellers+1])
	_ = long.Rollback(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("Beside a transaction open in another database: a spend reached profiles in %s.\n", ms(took))
	return nil
}

// rebuild times bin/projector -rebuild profiles.
func (b *bench) rebuild(ctx context.Context) error {
	var events int64
	_ = b.pool.QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&events)
	cmd := exec.Command(b.o.projector, "-rebuild", "profiles")
	cmd.Env = b.env
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

var rebuiltLine = regexp.MustCompile(`rebuilt \S+ in (\S+)`)
