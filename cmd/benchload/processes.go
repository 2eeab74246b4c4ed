package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

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

// saveProfile saves a process's profile of kind (pprof's "profile" for CPU,
// "allocs" for the allocations) over seconds to dir/name.
func saveProfile(metricsAddr, kind, dir, name string, seconds int) error {
	resp, err := http.Get(fmt.Sprintf("http://%s/debug/pprof/%s?seconds=%d", metricsAddr, kind, max(seconds, 1)))
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

// groupCommitCounters are bin/api's group commit counters, and its
// account cache's (spend_account_cache_*: none from a build without it).
type groupCommitCounters struct {
	commits, commands, seconds float64
	cacheHits, cacheMisses     float64
	// the Go runtime's, from the same endpoint: bytes and objects allocated
	allocBytes, mallocs float64
	gcs                 float64 // garbage collections (go_gc_duration_seconds_count)
}

// groupCommits reads bin/api's group commit counters from its metrics
// endpoint: transactions run, the commands they carried and the time they
// took, summed; and the bytes and objects the process allocated.
func groupCommits(metricsAddr string) (g groupCommitCounters) {
	resp, err := http.Get("http://" + metricsAddr + "/metrics")
	if err != nil {
		return g
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		switch name {
		case "group_commits_total":
			g.commits = v
		case "group_commit_commands_total":
			g.commands = v
		case "group_commit_seconds_total":
			g.seconds = v
		case "spend_account_cache_hits_total":
			g.cacheHits = v
		case "spend_account_cache_misses_total":
			g.cacheMisses = v
		case "go_memstats_alloc_bytes_total":
			g.allocBytes = v
		case "go_memstats_mallocs_total":
			g.mallocs = v
		case "go_gc_duration_seconds_count":
			g.gcs = v
		}
	}
	return g
}

// memoryOf is a process's resident memory now and its peak so far, in
// MiB (/proc/PID/status's VmRSS and VmHWM); zeros where /proc has none.
func memoryOf(pid int) (rss, peak float64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for line := range strings.Lines(string(b)) {
		name, value, ok := strings.Cut(line, ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 64)
		if err != nil {
			continue
		}
		if name == "VmRSS" {
			rss = kb / 1024
		} else {
			peak = kb / 1024
		}
	}
	return rss, peak
}
