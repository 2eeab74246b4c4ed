package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// clockTick is the unit of /proc's CPU times (USER_HZ, 100 on Linux).
const clockTick = 10 * time.Millisecond

// cpuSample is the CPU time used so far, by part: the API, the projector,
// the PostgreSQL server (every process of it, the exited ones included),
// this process (the load generator and the lag sampler), and the whole
// machine (busy time of every core, from /proc/stat).
//
// pgAPI and pgProjector are the shares of pg spent by the backends serving
// the API's and the projector's connections (by application_name); the rest
// of pg is the server's own processes (WAL writer, checkpointer…) and the
// other clients (the lag sampler, pgbench).
type cpuSample struct {
	api, projector, pg, loadgen, machine time.Duration
	pgAPI, pgProjector                   time.Duration
}

func (a cpuSample) sub(b cpuSample) cpuSample {
	return cpuSample{api: a.api - b.api, projector: a.projector - b.projector, pg: a.pg - b.pg,
		loadgen: a.loadgen - b.loadgen, machine: a.machine - b.machine,
		pgAPI: a.pgAPI - b.pgAPI, pgProjector: a.pgProjector - b.pgProjector}
}

// cpuMeter reads cpuSamples from /proc. pg is 0 when the server is not a
// process of this machine (then its share is not measured).
type cpuMeter struct {
	api, projector func() int // their current pids
	postmaster     int
	standbys       []int // the postmasters of the server's standbys on this machine (peerPostmasters)
	pool           *pgxpool.Pool
}

// newCPUMeter finds the PostgreSQL server's postmaster: the parent of the
// backend serving pool, when that backend runs on this machine.
func newCPUMeter(ctx context.Context, pool *pgxpool.Pool, api, projector func() int) *cpuMeter {
	m := &cpuMeter{api: api, projector: projector, pool: pool}
	var backend int
	if err := pool.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&backend); err != nil {
		return m
	}
	st, err := procStat(backend)
	if err != nil || !strings.Contains(st.comm, "postgres") {
		return m // another machine's, or another namespace's
	}
	m.postmaster = st.ppid
	m.standbys = peerPostmasters(ctx, pool, m.postmaster)
	return m
}

// sample reads every part's CPU time now.
func (m *cpuMeter) sample(ctx context.Context) cpuSample {
	var s cpuSample
	if st, err := procStat(m.api()); err == nil {
		s.api = st.self
	}
	if st, err := procStat(m.projector()); err == nil {
		s.projector = st.self
	}
	if st, err := procStat(os.Getpid()); err == nil {
		s.loadgen = st.self
	}
	if m.postmaster > 0 {
		s.pg = serverCPU(m.postmaster)
		for _, p := range m.standbys {
			s.pg += serverCPU(p)
		}
		s.pgAPI, s.pgProjector = m.backendsCPU(ctx)
	}
	s.machine = machineBusy()
	return s
}

// serverCPU is the CPU time of postmaster and all its processes: its own,
// its exited children's (reaped into its cutime and cstime) and its live
// children's, so a backend that exits between two samples is not lost.
func serverCPU(postmaster int) time.Duration {
	st, err := procStat(postmaster)
	if err != nil {
		return 0
	}
	total := st.self + st.children
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if c, err := procStat(pid); err == nil && c.ppid == postmaster {
			total += c.self
		}
	}
	return total
}

// backendsCPU is the CPU time of the live backends serving the API's and
// the projector's connections (a backend keeps its pool connection for the
// whole run, so its time is the connection's).
func (m *cpuMeter) backendsCPU(ctx context.Context) (api, projector time.Duration) {
	rows, err := m.pool.Query(ctx, `SELECT pid, application_name FROM pg_stat_activity WHERE application_name IN ('a2e-api', 'a2e-projector')`)
	if err != nil {
		return 0, 0
	}
	defer rows.Close()
	for rows.Next() {
		var pid int
		var app string
		if rows.Scan(&pid, &app) != nil {
			continue
		}
		st, err := procStat(pid)
		if err != nil {
			continue
		}
		if app == "a2e-api" {
			api += st.self
		} else {
			projector += st.self
		}
	}
	return api, projector
}

type stat struct {
	comm           string
	ppid           int
	self, children time.Duration // utime+stime; cutime+cstime
}

// procStat reads /proc/pid/stat (proc(5)).
func procStat(pid int) (stat, error) {
	if pid <= 0 {
		return stat{}, fmt.Errorf("no pid")
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return stat{}, err
	}
	// comm is in parentheses and may hold spaces: split after the last ')'.
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return stat{}, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	f := strings.Fields(string(b[end+1:])) // f[0] is field 3 (state)
	if len(f) < 15 {
		return stat{}, fmt.Errorf("/proc/%d/stat: too few fields", pid)
	}
	n := func(i int) int64 { v, _ := strconv.ParseInt(f[i-3], 10, 64); return v }
	return stat{comm: string(b[open+1 : end]), ppid: int(n(4)),
		self: time.Duration(n(14)+n(15)) * clockTick, children: time.Duration(n(16)+n(17)) * clockTick}, nil
}

// machineBusy is the machine's busy CPU time so far: every core's time
// in /proc/stat but idle and iowait.
func machineBusy() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line) // cpu user nice system idle iowait irq softirq steal ...
	var busy int64
	for i := 1; i < len(f) && i <= 8; i++ {
		if i == 4 || i == 5 {
			continue
		}
		v, _ := strconv.ParseInt(f[i], 10, 64)
		busy += v
	}
	return time.Duration(busy) * clockTick
}

// perOp is d spread over n operations, in ms, or "n/a".
func perOp(d time.Duration, n int64) string {
	if n <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", float64(d)/float64(time.Millisecond)/float64(n))
}

// projectorMeter measures the projector's CPU per event of the log it
// passes (the profiles watermark's progress; each event is applied to every
// projection in the same batch).
type projectorMeter struct {
	pid int
	cpu time.Duration
	wm  int64
}

func watermark(ctx context.Context, pool *pgxpool.Pool) int64 {
	var wm int64
	_ = pool.QueryRow(ctx, `SELECT coalesce((SELECT position FROM projection_watermarks WHERE projection = 'profiles'), 0)`).Scan(&wm)
	return wm
}

func startMeter(ctx context.Context, pool *pgxpool.Pool, p *proc) *projectorMeter {
	m := &projectorMeter{pid: p.cmd.Process.Pid, wm: watermark(ctx, pool)}
	if st, err := procStat(m.pid); err == nil {
		m.cpu = st.self
	}
	return m
}

// perEvent is the projector's CPU per event since the meter started, and
// the events passed.
func (m *projectorMeter) perEvent(ctx context.Context, pool *pgxpool.Pool) (time.Duration, int64) {
	st, err := procStat(m.pid)
	events := watermark(ctx, pool) - m.wm
	if err != nil || events <= 0 {
		return 0, events
	}
	return (st.self - m.cpu) / time.Duration(events), events
}

func us(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond)) }

// catchUp is how the projector worked a backlog off.
type catchUp struct {
	events      int64
	took        time.Duration
	cpuPerEvent time.Duration
}

// drain waits until the profiles watermark passes the log's head as it
// was when m started (the backlog), looking every lagResolution.
func drain(ctx context.Context, pool *pgxpool.Pool, m *projectorMeter) catchUp {
	start := time.Now()
	var head int64
	_ = pool.QueryRow(ctx, `SELECT coalesce(max(global_position), 0) FROM events`).Scan(&head)
	for watermark(ctx, pool) < head && time.Since(start) < 5*time.Minute {
		time.Sleep(lagResolution)
	}
	took := time.Since(start)
	perEvent, events := m.perEvent(ctx, pool)
	return catchUp{events: events, took: took, cpuPerEvent: perEvent}
}
