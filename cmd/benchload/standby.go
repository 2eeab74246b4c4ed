package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/jackc/pgx/v5/pgxpool"
)

// haDataDirs are the variables `make ha-up` writes into .data/ha/env for
// its two data nodes.
var haDataDirs = []string{"HA_PGDATA_1", "HA_PGDATA_2"}

// peerPostmasters are the postmasters, other than primary, of the data
// nodes of the pair the server belongs to: when the server's data
// directory is one of HA_PGDATA_1 and HA_PGDATA_2 (as in .data/ha/env),
// the postmaster running on the other. A synchronous pair's CPU per spend
// then counts the standby's processes too (its WAL receiver, startup
// process replaying, and the rest), not just the primary's.
func peerPostmasters(ctx context.Context, pool *pgxpool.Pool, primary int) []int {
	var dir string
	if err := pool.QueryRow(ctx, `SHOW data_directory`).Scan(&dir); err != nil {
		return nil
	}
	var others []string
	mine := false
	for _, v := range haDataDirs {
		d := os.Getenv(v)
		switch {
		case d == "":
		case sameDir(d, dir):
			mine = true
		default:
			others = append(others, d)
		}
	}
	if !mine {
		return nil
	}
	var pids []int
	for _, d := range others {
		if p := postmasterOf(d); p > 0 && p != primary {
			pids = append(pids, p)
		}
	}
	return pids
}

func sameDir(a, b string) bool {
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}

// postmasterOf is the pid of the postmaster serving data directory dir:
// the first line of its postmaster.pid, when that process is alive.
func postmasterOf(dir string) int {
	b, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	pid, err := strconv.Atoi(string(bytes.TrimSpace(line)))
	if err != nil {
		return 0
	}
	if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err != nil {
		return 0
	}
	return pid
}
