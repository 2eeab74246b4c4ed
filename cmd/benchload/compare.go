package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// runCompare is -compare: the levels against two servers in one run, each
// with its own fresh database, API and projector (the second's builds are
// -compare-api's and -compare-projector's when given: two builds side by
// side on two like servers). Each level runs in
// rounds, the first server then the second, so whatever else loads the
// machine meanwhile falls on both alike.
func runCompare(ctx context.Context, o options) error {
	first, cleanFirst, err := start(ctx, o)
	defer cleanFirst()
	if err != nil {
		return err
	}
	o2 := o
	o2.server = o.compare
	if o.compareAPI != "" {
		o2.api = o.compareAPI
	}
	if o.compareProjector != "" {
		o2.projector = o.compareProjector
	}
	if o.pprof != "" {
		o2.pprof = filepath.Join(o.pprof, "compare")
	}
	second, cleanSecond, err := start(ctx, o2)
	defer cleanSecond()
	if err != nil {
		return err
	}
	return compareLevels(ctx, []*bench{first, second})
}

// side is one server's share of a level: its spends over its own rounds,
// and its processes' CPU over the whole level (a projector and a standby
// finishing a round's work during the other server's round still count).
type side struct {
	b                 *bench
	meter             *cpuMeter
	cpu               cpuSample
	commits, commands float64
	spends, non201    int64
	elapsed           time.Duration
	latencies         []time.Duration
	floor             floorRun
}

func newSide(ctx context.Context, b *bench) *side {
	m := newCPUMeter(ctx, b.pool, func() int { return b.api.cmd.Process.Pid }, func() int { return b.projector.cmd.Process.Pid })
	s := &side{b: b, meter: m, cpu: m.sample(ctx)}
	g := groupCommits(b.metricsAddr)
	s.commits, s.commands = g.commits, g.commands
	return s
}

// round drives the side's server with c clients for d.
func (s *side) round(ctx context.Context, c int, d time.Duration) {
	res := load(ctx, s.b.pool, s.b.base, s.b.keys[:s.b.o.sellers], c, d)
	s.spends += res.spends
	s.non201 += res.non201
	if res.rate > 0 {
		s.elapsed += time.Duration(float64(res.spends) / res.rate * float64(time.Second))
	}
	s.latencies = append(s.latencies, res.latencies...)
}

// end closes the side's level: its CPU and group commits since newSide.
func (s *side) end(ctx context.Context) {
	s.cpu = s.meter.sample(ctx).sub(s.cpu)
	g := groupCommits(s.b.metricsAddr)
	s.commits, s.commands = g.commits-s.commits, g.commands-s.commands
}

func (s *side) rate() float64 {
	if s.elapsed <= 0 {
		return 0
	}
	return float64(s.spends) / s.elapsed.Seconds()
}

// compareLevels runs each level against both servers, rounds interleaved,
// then the floor against each, and prints one line per level.
func compareLevels(ctx context.Context, benches []*bench) error {
	o := benches[0].o
	slice := time.Duration(o.seconds) * time.Second / time.Duration(o.rounds)
	fmt.Printf("Side by side: first %s (%s, %s), second %s (%s, %s); %d rounds of %v each per level, first then second.\n\n",
		serverName(benches[0].pool), benches[0].o.api, benches[0].o.projector,
		serverName(benches[1].pool), benches[1].o.api, benches[1].o.projector, o.rounds, slice)
	fmt.Println("| clients | first spends/s | second spends/s | first / second | first p50 / p99 | second p50 / p99 | first server CPU per spend | second server CPU per spend | first floor tx/s | second floor tx/s | group commits/s (spends each) first, second | non-201 | load average (1 min) before, after |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, c := range o.levels {
		load0 := loadAverage()
		sides := []*side{newSide(ctx, benches[0]), newSide(ctx, benches[1])}
		var profiled []chan error
		if o.pprof != "" {
			for _, b := range benches {
				profiled = append(profiled, b.profile(c, 2*o.seconds-1))
			}
		}
		for range o.rounds {
			for _, s := range sides {
				s.round(ctx, c, slice)
			}
		}
		for _, s := range sides {
			s.end(ctx)
		}
		for _, p := range profiled {
			if err := <-p; err != nil {
				return err
			}
		}
		for _, s := range sides {
			var err error
			if s.floor, err = pgbench(s.b.db, o.floor, c, max(o.seconds/2, 1)); err != nil {
				return err
			}
		}
		fmt.Println(compareRow(c, sides, load0, loadAverage()))
	}
	fmt.Println("\nServer CPU per spend: bin/api + bin/projector + every PostgreSQL process of the server (for a pair of `make ha-up`, both data nodes: HA_PGDATA_1 and HA_PGDATA_2 in the environment), over the whole level, /proc. The floor: perf/spend.sql under pgbench, same clients, half a level against each, after the level.")
	return nil
}

func compareRow(c int, sides []*side, load0, load1 string) string {
	a, b := sides[0], sides[1]
	ratio := "n/a"
	if b.rate() > 0 {
		ratio = fmt.Sprintf("**%.2f×**", a.rate()/b.rate())
	}
	latency := func(s *side) string { return ms(pct(s.latencies, 50)) + " / " + ms(pct(s.latencies, 99)) }
	cpu := func(s *side) string { return perOp(s.cpu.api+s.cpu.projector+s.cpu.pg, s.spends) + " ms" }
	commits := func(s *side) string {
		secs := s.elapsed.Seconds()
		if secs <= 0 || s.commits <= 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.0f (%.1f)", s.commits/secs, s.commands/s.commits)
	}
	return fmt.Sprintf("| %d | %.0f | %.0f | %s | %s | %s | %s | %s | %.0f | %.0f | %s, %s | %d, %d | %s, %s |", c,
		a.rate(), b.rate(), ratio, latency(a), latency(b), cpu(a), cpu(b), a.floor.tps, b.floor.tps,
		commits(a), commits(b), a.non201, b.non201, load0, load1)
}

// serverName is where the pool's connections went: address and port.
func serverName(pool *pgxpool.Pool) string {
	var addr, port string
	if err := pool.QueryRow(context.Background(), `SELECT coalesce(inet_server_addr()::text, 'socket'), current_setting('port')`).Scan(&addr, &port); err != nil {
		return "?"
	}
	return strings.TrimSuffix(addr, "/32") + ":" + port
}

// loadAverage is the machine's load average over the last minute.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}
