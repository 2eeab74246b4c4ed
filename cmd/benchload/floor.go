package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/pgpool"
)

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

var (
	tpsLine = regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`)
	txLine  = regexp.MustCompile(`number of transactions actually processed: ([0-9]+)`)
)

// floorRun is one pgbench run of the floor.
type floorRun struct {
	tps          float64
	transactions int64
	cpu          time.Duration // pgbench's own (user + system)
}

// pgbench runs the floor with c clients for seconds.
func pgbench(db, dir string, c, seconds int) (floorRun, error) {
	cmd := exec.Command("pgbench", pgpool.WithoutPoolParams(db), "-n", "-f", filepath.Join(dir, "spend.sql"), "-D", "accounts=1000",
		"-c", strconv.Itoa(c), "-j", strconv.Itoa(min(c, 2)), "-T", strconv.Itoa(seconds))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return floorRun{}, fmt.Errorf("pgbench: %v\n%s", err, out)
	}
	m, n := tpsLine.FindSubmatch(out), txLine.FindSubmatch(out)
	if m == nil || n == nil {
		return floorRun{}, fmt.Errorf("pgbench printed no tps:\n%s", out)
	}
	r := floorRun{cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	if r.tps, err = strconv.ParseFloat(string(m[1]), 64); err != nil {
		return floorRun{}, err
	}
	if r.transactions, err = strconv.ParseInt(string(n[1]), 10, 64); err != nil {
		return floorRun{}, err
	}
	return r, nil
}
