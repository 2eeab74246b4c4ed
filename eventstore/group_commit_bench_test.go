package eventstore_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// processCPU is this process's user and system time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// backendsCPU is the user and system time so far of the server's backends
// connected to pool's database (from /proc: a server on this machine), and
// false when they cannot be read. Clock ticks are 10 ms.
func backendsCPU(ctx context.Context, pool interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}) (time.Duration, bool) {
	rows, err := pool.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
	if err != nil {
		return 0, false
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return 0, false
	}
	var total time.Duration
	for _, pid := range pids {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return 0, false
		}
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
		utime, _ := strconv.ParseInt(f[11], 10, 64)
		stime, _ := strconv.ParseInt(f[12], 10, 64)
		total += time.Duration(utime+stime) * 10 * time.Millisecond
	}
	return total, true
}

// BenchmarkGroupCommitOfSpends runs group commits one after the other, each
// of 8 commands shaped like listing spends as they were until issue 36's
// tenth session (two events, a snapshot, an Idempotency-Key; kept so that
// figures compare with the earlier sessions') on 8 accounts' streams: the wall time of one group
// commit (its round trips and its flush) and the client's CPU for it
// (cpu-µs/op, the process's user + system time over the loop) and, when the
// server runs on this machine, its backends' (server-cpu-µs/op), without the
// HTTP exchange or a second group commit beside it (docs/benchmarks.md,
// issue 36, fourth session). On a durable server (fsync on):
//
//	TEST_DATABASE_URL=… go test ./eventstore/ -run '^$' -bench BenchmarkGroupCommitOfSpends -benchtime 600x
func BenchmarkGroupCommitOfSpends(b *testing.B) { benchmarkGroupCommit(b, 8) }

// BenchmarkGroupCommitOfOneSpend is BenchmarkGroupCommitOfSpends for a
// batch of one command: what a lane starts when nothing runs and one spend
// is queued (one batch in nine at 16 clients in bench-load).
func BenchmarkGroupCommitOfOneSpend(b *testing.B) { benchmarkGroupCommit(b, 1) }

func benchmarkGroupCommit(b *testing.B, size int) {
	pool := testdb.New(b)
	s := eventstore.New(pool)
	ctx := context.Background()
	spend := func(_ context.Context, _ pgx.Tx, _ eventstore.Snapshot) (eventstore.Decision, error) {
		return eventstore.Decision{
			Events: []eventstore.NewEvent{
				{Type: "CreditsSpent", Data: []byte(`{"amount":1,"operation":"listing"}`)},
				{Type: "ListingRequested", Data: []byte(`{"listingId":"l","asin":"B000000000"}`)},
			},
			State:  []byte(`{"balance":1000}`),
			Result: []byte(`{"balance":999}`),
		}, nil
	}
	n := 0
	batch := func() []eventstore.Command {
		cmds := make([]eventstore.Command, size)
		for i := range cmds {
			n++
			key := fmt.Sprint(n)
			cmds[i] = eventstore.Command{Stream: fmt.Sprintf("account-%d", i), Opts: eventstore.UpdateOptions{IdempotencyKey: key, RequestHash: key}, Decide: spend}
		}
		return cmds
	}
	for range 20 { // the accounts' streams exist, the statements are prepared
		s.UpdateMany(ctx, batch())
	}
	b.ResetTimer()
	serverStart, server := backendsCPU(ctx, pool)
	start := processCPU()
	for b.Loop() {
		for _, o := range s.UpdateMany(ctx, batch()) {
			if o.Err != nil {
				b.Fatal(o.Err)
			}
		}
	}
	b.ReportMetric(float64((processCPU()-start).Microseconds())/float64(b.N), "cpu-µs/op")
	if serverEnd, ok := backendsCPU(ctx, pool); ok && server {
		b.ReportMetric(float64((serverEnd-serverStart).Microseconds())/float64(b.N), "server-cpu-µs/op")
	}
}
