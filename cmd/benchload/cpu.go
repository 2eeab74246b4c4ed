package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// clockTick is the unit of /proc/<pid>/stat's CPU times (USER_HZ, 100 on
// Linux for every architecture this runs on).
const clockTick = 10 * time.Millisecond

// cpuOf is the CPU time (user + system) process pid has used so far.
func cpuOf(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name (which may hold spaces, inside
	// parentheses): state is field 3, utime 14, stime 15.
	s := string(b)
	rest := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(rest) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, s)
	}
	utime, err1 := strconv.ParseInt(rest[11], 10, 64)
	stime, err2 := strconv.ParseInt(rest[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, s)
	}
	return time.Duration(utime+stime) * clockTick, nil
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
	m.cpu, _ = cpuOf(m.pid)
	return m
}

// perEvent is the projector's CPU per event since the meter started, and
// the events passed.
func (m *projectorMeter) perEvent(ctx context.Context, pool *pgxpool.Pool) (time.Duration, int64) {
	cpu, err := cpuOf(m.pid)
	events := watermark(ctx, pool) - m.wm
	if err != nil || events <= 0 {
		return 0, events
	}
	return (cpu - m.cpu) / time.Duration(events), events
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
