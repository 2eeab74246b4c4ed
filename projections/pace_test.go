package projections_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/projections"
)

// pacedRun runs the projector with BatchInterval interval, woken only by
// the wake-ups the test sends (wake), never by its poll (a minute): what
// it applies within the test comes from the wake-ups alone. Each batch's
// transaction is counted (batches) through a trigger on the watermarks,
// which every live batch writes once.
func (f *fixture) pacedRun(t *testing.T, interval time.Duration, opts projections.RunOptions) (wake func(), batches func() int) {
	t.Helper()
	ctx := context.Background()
	if _, err := f.pool.Exec(ctx, `CREATE TABLE test_batches (xid xid8 NOT NULL);
		CREATE FUNCTION test_count_batch() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN INSERT INTO test_batches VALUES (pg_current_xact_id()); RETURN NULL; END $$;
		CREATE TRIGGER test_count_batch AFTER INSERT OR UPDATE ON projection_watermarks
			FOR EACH ROW EXECUTE FUNCTION test_count_batch()`); err != nil {
		t.Fatal(err)
	}
	pubsub := gochannel.NewGoChannel(gochannel.Config{}, watermill.NopLogger{})
	opts.PollInterval, opts.BatchInterval = time.Minute, interval
	opts.Subscriber = func(string) (message.Subscriber, error) { return pubsub, nil }
	runCtx, stop := context.WithCancel(ctx)
	done := f.runWith(runCtx, opts)
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Error(err)
		}
	})
	wake = func() {
		if err := pubsub.Publish(eventstore.Topic, message.NewMessage(watermill.NewUUID(), nil)); err != nil {
			t.Fatal(err)
		}
	}
	batches = func() int {
		var n int
		if err := f.pool.QueryRow(ctx, `SELECT count(DISTINCT xid) FROM test_batches`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	return wake, batches
}

func verify(a *domain.Account, now time.Time) error { return a.VerifyEmail(now) }

// TestBatchIntervalGathersCommits: commits woken one by one within the
// interval are applied in one batch, not one each.
func TestBatchIntervalGathersCommits(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	wake, batches := f.pacedRun(t, 500*time.Millisecond, projections.RunOptions{})
	first := f.register(t)
	wake()
	if err := f.projector.WaitFor(ctx, f.lastPosition(t, first), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	before := batches()
	start := time.Now()
	const commits = 8
	var last int64
	for range commits {
		id := f.register(t)
		wake()
		last = f.do(t, id, verify)
		wake()
	}
	if time.Since(start) > 400*time.Millisecond {
		t.Skipf("the %d commits took %v, longer than the interval: nothing to compare", 2*commits, time.Since(start))
	}
	if err := f.projector.WaitFor(ctx, last, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	// The first wake-up after the first batch waits for the interval's end,
	// and that batch takes every commit up to then.
	if n := batches() - before; n > 2 {
		t.Fatalf("%d commits applied in %d batches; want at most 2", 2*commits, n)
	}
}

// TestBatchIntervalKeepsWakeUp: a wake-up that comes during the interval is
// not lost: its commit is applied when the interval ends, not at the next
// poll (a minute later).
func TestBatchIntervalKeepsWakeUp(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	const interval = 300 * time.Millisecond
	wake, _ := f.pacedRun(t, interval, projections.RunOptions{})
	a := f.register(t)
	woken := time.Now()
	wake()
	if err := f.projector.WaitFor(ctx, f.lastPosition(t, a), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	pos := f.do(t, a, verify)
	wake()
	if err := f.projector.WaitFor(ctx, pos, 5*time.Second); err != nil {
		t.Fatalf("the wake-up within the interval was lost: %v", err)
	}
	// Its batch started no earlier than the interval after the first one,
	// which started after the first wake-up.
	if took := time.Since(woken); took < interval {
		t.Fatalf("the second commit was applied %v after the first wake-up; the interval is %v", took, interval)
	}
}

// TestBatchIntervalBacklogAtOnce: a backlog is worked off batch after batch
// without the interval between them.
func TestBatchIntervalBacklogAtOnce(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	var last int64
	for range 10 {
		last = f.do(t, f.register(t), verify)
	}
	start := time.Now()
	// Three events a batch: about eight batches, paced they would take 8 s.
	_, batches := f.pacedRun(t, time.Second, projections.RunOptions{BatchSize: 3, MaxBatchSize: 3})
	if err := f.projector.WaitFor(ctx, last, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if n := batches(); n < 4 {
		t.Fatalf("the backlog took %d batches; want several (three events each)", n)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("the backlog took %v; paced batches, not at once", took)
	}
}
