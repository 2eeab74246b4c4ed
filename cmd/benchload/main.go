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
	// The API's metrics endpoint: its group commit counters, and profiles.
	metricsAddr, err := freeAddr()
	if err != nil {
		return err
	}
	apiEnv := append(slices.Clone(env), "METRICS_ADDR="+metricsAddr)
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

	meter := newCPUMeter(ctx, pool, func() int { return api.cmd.Process.Pid }, func() int { return projector.cmd.Process.Pid })
	var cpuRows, batches []string
	fmt.Println("| clients | spends/s via /v1/listings | floor tx/s (same server, right after) | ratio | p50 / p99 | lag p99 (append → profiles) | non-201 | projector CPU per event |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
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
		before := meter.sample(ctx)
		commits0, commands0 := groupCommits(metricsAddr)
		events := startMeter(ctx, pool, projector)
		res := load(ctx, pool, base, keys[:o.sellers], c, time.Duration(o.seconds)*time.Second)
		used := meter.sample(ctx).sub(before)
		cpuPerEvent, _ := events.perEvent(ctx, pool)
		commits1, commands1 := groupCommits(metricsAddr)
		batches = append(batches, fmt.Sprintf("%d clients: %.0f group commits/s, %.1f spends each", c,
			(commits1-commits0)/float64(o.seconds), (commands1-commands0)/max(commits1-commits0, 1)))
		if profiled != nil {
			if err := <-profiled; err != nil {
				return err
			}
		}
		before = meter.sample(ctx)
		floor, err := pgbench(db, o.floor, c, o.seconds)
		if err != nil {
			return err
		}
		floorUsed := meter.sample(ctx).sub(before)
		fmt.Printf("| %d | %.0f | %.0f | %.2f× | %s / %s | %s | %d | %s |\n", c, res.rate, floor.tps, res.rate/floor.tps,
			ms(res.p50), ms(res.p99), ms(res.lagP99), res.non201, us(cpuPerEvent))
		byParts := used.api + used.projector + used.pg + used.loadgen
		floorParts := floorUsed.pg + floor.cpu
		cpuRows = append(cpuRows, fmt.Sprintf("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |", c,
			perOp(used.api, res.spends), perOp(used.pgAPI, res.spends), perOp(used.projector, res.spends), perOp(used.pgProjector, res.spends),
			perOp(used.pg-used.pgAPI-used.pgProjector, res.spends), perOp(used.loadgen, res.spends),
			perOp(byParts, res.spends), perOp(used.machine, res.spends),
			perOp(floorUsed.pg, floor.transactions), perOp(floor.cpu, floor.transactions),
			perOp(floorParts, floor.transactions), perOp(floorUsed.machine, floor.transactions)))
	}
	fmt.Println("\nCPU per operation, ms (from /proc: each process's user + system time over the level. PostgreSQL is every process of the server, exited backends included: its backends for the API's and the projector's connections, and the rest (WAL writer, checkpointer, the lag sampler's backend). The load generator is this process, with its lag sampler. Machine is every core's busy time, whatever ran):")
	fmt.Println()
	fmt.Println("| clients | spend: API | its PG backends | projector | its PG backends | other PG | load generator | sum | machine | floor tx: PostgreSQL | pgbench | sum | machine |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, row := range cpuRows {
		fmt.Println(row)
	}
	fmt.Printf("\nGroup commits (bin/api's group_commits_total and group_commit_commands_total over each level): %s.\n", strings.Join(batches, "; "))

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
	// profiles is how long after the restart. Meanwhile: how fast the
	// projector works the backlog off while the load goes on.
	backlogMeter := startMeter(ctx, pool, projector)
	drained := make(chan catchUp, 1)
	go func() { drained <- drain(ctx, pool, backlogMeter) }()
	took, err := spendAndWait(ctx, pool, base, idle)
	cu := <-drained
	close(stop)
	wg.Wait()
	if err != nil {
		return err
	}
	fmt.Printf("\nAfter a 15 s projector outage under load (16 clients, backlog %d events): an idle account's spend, made at the restart, reached profiles %s later.\n",
		backlog, ms(took))
	fmt.Printf("Catch-up under that load: %d events passed in %s until the backlog of the restart was applied, %.0f events/s, projector CPU %s per event.\n",
		cu.events, ms(cu.took), float64(cu.events)/cu.took.Seconds(), us(cu.cpuPerEvent))

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

var rebuiltLine = regexp.MustCompile(`rebuilt \S+ in (\S+)`)
