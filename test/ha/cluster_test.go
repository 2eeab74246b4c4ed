// Package ha_test runs the product on the high-availability cluster of
// scripts/ha-up.sh (a pg_auto_failover monitor, a primary and a synchronous
// standby, WAL archived by pgBackRest), each test on a cluster of its own in a
// temporary folder: a failover under load, and the backup drill.
//
// Nothing is skipped: when the Debian packages cannot be installed,
// scripts/ensure-ha-tools.sh says why and the test fails.
package ha_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/internal/testing/systest"
	"github.com/a2e-automation/app/internal/testing/testbin"
)

// cluster is one scripts/ha-up.sh cluster.
type cluster struct {
	t    *testing.T
	root string
	dir  string
	port int
	env  map[string]string
}

// startCluster brings a cluster up under a fresh folder on free ports.
func startCluster(t *testing.T) *cluster {
	t.Helper()
	dir, err := os.MkdirTemp("", "a2e-ha-")
	if err != nil {
		t.Fatal(err)
	}
	// The servers run as an unprivileged user when the test runs as root.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c := &cluster{t: t, root: systest.Root(t), dir: dir, port: freePorts(t, 3)}
	t.Cleanup(func() {
		if t.Failed() {
			c.logTail()
		}
		if out, err := c.script("ha-down.sh", "-purge"); err != nil {
			t.Logf("ha-down: %v\n%s", err, out)
		}
	})
	c.up()
	c.checkMalloc()
	return c
}

// checkMalloc: the monitor's and both nodes' postmasters, started by
// pg_autoctl, run with scripts/ha-lib.sh's HA_MALLOC in GLIBC_TUNABLES
// exactly (or the test's own GLIBC_TUNABLES), read from /proc
// (systest.GlibcTunables).
func (c *cluster) checkMalloc() {
	c.t.Helper()
	lib, err := os.ReadFile(filepath.Join(c.root, "scripts", "ha-lib.sh"))
	if err != nil {
		c.t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(lib), "\nHA_MALLOC=")
	if !ok {
		c.t.Fatal("scripts/ha-lib.sh sets no HA_MALLOC")
	}
	want, _, _ := strings.Cut(rest, "\n")
	if own, ok := os.LookupEnv("GLIBC_TUNABLES"); ok {
		want = own
	}
	for _, node := range []string{"monitor", "node1", "node2"} {
		pid := c.pidOf(filepath.Join(c.dir, node, "postmaster.pid"))
		got, set, err := systest.GlibcTunables(pid)
		if err != nil {
			c.t.Fatalf("%s's postmaster: %v", node, err)
		}
		if !set || got != want {
			c.t.Errorf("%s's postmaster (pid %d) runs with GLIBC_TUNABLES %q (set: %v), want %q", node, pid, got, set, want)
		}
	}
}

func (c *cluster) script(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(c.root, "scripts", name), args...)
	cmd.Env = append(os.Environ(), "HA_DIR="+c.dir, "HA_PORT="+strconv.Itoa(c.port))
	return cmd.CombinedOutput()
}

// up runs ha-up.sh (again: it restarts a node whose pg_autoctl is gone) and
// reads the env file it writes.
func (c *cluster) up() {
	c.t.Helper()
	start := time.Now()
	out, err := c.script("ha-up.sh")
	if err != nil {
		c.t.Fatalf("ha-up.sh: %v\n%s", err, out)
	}
	c.t.Logf("ha-up.sh in %s:\n%s", time.Since(start).Round(time.Millisecond), strings.TrimSpace(string(out)))
	c.env = readEnv(c.t, filepath.Join(c.dir, "env"))
}

func (c *cluster) logTail() {
	files, _ := filepath.Glob(filepath.Join(c.dir, "log", "node*.log"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if len(data) > 4000 {
			data = data[len(data)-4000:]
		}
		c.t.Logf("%s (tail):\n%s", f, data)
	}
}

// readEnv parses KEY='value' lines.
func readEnv(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if ok {
			env[k] = strings.Trim(v, "'")
		}
	}
	for _, k := range []string{"DATABASE_URL", "READ_DATABASE_URL", "HA_MONITOR_URL", "HA_PGDATA_1", "HA_PGDATA_2"} {
		if env[k] == "" {
			t.Fatalf("%s has no %s", path, k)
		}
	}
	return env
}

// freePorts finds n consecutive free ports.
func freePorts(t *testing.T, n int) int {
	t.Helper()
	for range 200 {
		base := 20000 + rand.IntN(12000) // below the ephemeral range (32768-)
		free := true
		for i := range n {
			ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(base+i))
			if err != nil {
				free = false
				break
			}
			ln.Close()
		}
		if free {
			return base
		}
	}
	t.Fatal("no free ports")
	return 0
}

// state is each node's reported and goal state, as the monitor sees them:
// "node1" -> "primary/primary".
func (c *cluster) state() (map[string]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.env["HA_MONITOR_URL"])
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT nodename, reportedstate::text || '/' || goalstate::text FROM pgautofailover.node`)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for rows.Next() {
		var name, st string
		if err := rows.Scan(&name, &st); err != nil {
			return nil, err
		}
		out[name] = st
	}
	return out, rows.Err()
}

// primary is the node the monitor reports as primary ("node1" or "node2").
func (c *cluster) primary() string {
	c.t.Helper()
	st, err := c.state()
	if err != nil {
		c.t.Fatal(err)
	}
	for name, s := range st {
		if strings.HasPrefix(s, "primary/") {
			return name
		}
	}
	c.t.Fatalf("no primary: %v", st)
	return ""
}

// pidOf is the pid on the first line of the pid file at path (pg_autoctl's
// or a postmaster's).
func (c *cluster) pidOf(path string) int {
	c.t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		c.t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(data), "\n", 2)[0]))
	if err != nil {
		c.t.Fatalf("%s: %v", path, err)
	}
	return pid
}

// killNode loses node (its machine): SIGKILL to its pg_autoctl service with
// everything in its session, and to its postmaster with every child,
// all stopped first so nothing restarts anything in between.
func (c *cluster) killNode(node string) {
	c.t.Helper()
	autoctl := c.pidOf(filepath.Join(c.dir, "run", node+".pid"))
	postmaster := c.pidOf(filepath.Join(c.dir, node, "postmaster.pid"))
	victims := map[int]bool{autoctl: true, postmaster: true}
	procs := processes()
	for grew := true; grew; {
		grew = false
		for pid, p := range procs {
			if !victims[pid] && (p.sid == autoctl || victims[p.ppid]) {
				victims[pid], grew = true, true
			}
		}
	}
	for pid := range victims {
		_ = syscall.Kill(pid, syscall.SIGSTOP)
	}
	for pid := range victims {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	c.t.Logf("killed %s: %d processes (pg_autoctl %d, postmaster %d)", node, len(victims), autoctl, postmaster)
}

type procInfo struct{ ppid, sid int }

// processes reads every process's parent and session from /proc.
func processes() map[int]procInfo {
	out := map[int]procInfo{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp session ...; comm may hold spaces.
		s := string(data)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) < 4 {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		sid, _ := strconv.Atoi(fields[3])
		out[pid] = procInfo{ppid: ppid, sid: sid}
	}
	return out
}

// startAPI runs bin/api (and returns its base URL) or bin/projector on the
// cluster with env.
func startProcess(t *testing.T, bin string, args, env []string, log io.Writer, ready string) *testbin.Program {
	t.Helper()
	p, err := testbin.StartProgram(bin, args, env, log, func(r io.Reader) (string, error) {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if strings.Contains(sc.Text(), ready) {
				return "", nil
			}
		}
		return "", fmt.Errorf("%s exited before printing %q", filepath.Base(bin), ready)
	}, 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	return p
}
