package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"

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
