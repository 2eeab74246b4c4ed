package eventstore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/internal/testing/testdb"
)

// BenchmarkGroupCommitStatementsAgainstFunctions compares, in one process
// on one database, a group commit sent as its statements (eleven) and
// as calls of migration 00039's functions (five), interleaved chunk by
// chunk (A B B A …) so that the machine's load falls on both alike: spends
// shaped like bench-load's (one event, an 860-byte state, a 205-byte
// answer, an Idempotency-Key) on distinct streams of 128 accounts, batches
// of size commands (BATCH, default 7). It reports for each the client's CPU
// and the server backends' CPU per group commit (from /proc/<pid>/schedstat:
// nanoseconds, a server on this machine). issue 36, eleventh session.
func BenchmarkGroupCommitStatementsAgainstFunctions(b *testing.B) {
	size := 7
	if n, err := strconv.Atoi(os.Getenv("BATCH")); err == nil {
		size = n
	}
	pool := testdb.New(b)
	s := New(pool)
	ctx := context.Background()
	state := []byte(`{"balance":1000,"pad":"` + strings.Repeat("x", 840) + `"}`)
	result := []byte(`{"listingId":"` + strings.Repeat("l", 36) + `","pad":"` + strings.Repeat("r", 140) + `"}`)
	data := []byte(`{"amount":1,"operation":"listing","listingId":"` + strings.Repeat("l", 36) + `","asin":"B000000000"}`)
	spend := func(context.Context, pgx.Tx, Snapshot) (Decision, error) {
		return Decision{Events: []NewEvent{{Type: "CreditsSpent", Data: data}}, State: state, Result: result}, nil
	}
	accounts := make([]string, 128)
	for i := range accounts {
		accounts[i] = fmt.Sprintf("account-%08d-0000-0000-0000-000000000000", i)
	}
	n := 0
	batch := func() []Command {
		cmds := make([]Command, size)
		for i, a := range rand.Perm(len(accounts))[:size] {
			n++
			key := fmt.Sprintf("key-%012d", n)
			cmds[i] = Command{Stream: accounts[a], Opts: UpdateOptions{IdempotencyKey: key, RequestHash: strings.Repeat("h", 64)}, Decide: spend}
		}
		return cmds
	}
	cte := os.Getenv("CTE") == "1"
	run := func(functions bool, commits int) (client, server time.Duration) {
		if cte {
			groupCTE = functions
		} else {
			groupFunctions = functions
		}
		defer func() { groupFunctions, groupCTE = false, false }()
		server0 := schedstat(b, ctx, s)
		client0 := rusage()
		for range commits {
			for _, o := range s.UpdateMany(ctx, batch()) {
				if o.Err != nil {
					b.Fatal(o.Err)
				}
			}
		}
		return rusage() - client0, schedstat(b, ctx, s) - server0
	}
	for range 4 { // every account's stream exists, both forms' statements are prepared
		run(false, 40)
		run(true, 40)
	}
	chunk := 200
	if n, err := strconv.Atoi(os.Getenv("CHUNK")); err == nil {
		chunk = n
	}
	var client, server [2]time.Duration
	var commits [2]int
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		f := i%4 == 1 || i%4 == 2 // A B B A
		c, sv := run(f, chunk)
		k := 0
		if f {
			k = 1
		}
		client[k] += c
		server[k] += sv
		commits[k] += chunk
	}
	for k, name := range []string{"statements", "functions"} {
		if commits[k] == 0 {
			continue
		}
		b.ReportMetric(float64(client[k].Microseconds())/float64(commits[k]), name+"-cpu-µs/commit")
		b.ReportMetric(float64(server[k].Microseconds())/float64(commits[k]), name+"-server-cpu-µs/commit")
	}
}

// rusage is this process's user and system time so far.
func rusage() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// schedstat is the CPU time so far of the server's backends connected to
// s's database, from /proc/<pid>/schedstat (nanoseconds).
func schedstat(b *testing.B, ctx context.Context, s *Store) time.Duration {
	rows, err := s.Pool().Query(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
	if err != nil {
		b.Fatal(err)
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		b.Fatal(err)
	}
	var total time.Duration
	for _, pid := range pids {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/schedstat", pid))
		if err != nil {
			b.Fatal(err)
		}
		ns, _ := strconv.ParseInt(strings.Fields(string(stat))[0], 10, 64)
		total += time.Duration(ns)
	}
	return total
}
