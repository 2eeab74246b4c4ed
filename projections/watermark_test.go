package projections_test

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/projections"
)

// The watermark passes only events that are applied, in log order, and the
// sweep and lag read the log from it.
func TestWatermarkFollowsAppliedEventsInLogOrder(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	a, b, c := f.register(t), f.register(t), f.register(t) // two events each, in this order
	if wm, err := f.projector.AdvanceWatermark(ctx, "profiles"); err != nil || wm != 0 {
		t.Fatalf("watermark before anything is applied = %d, %v", wm, err)
	}
	// Only b's events are applied: a's still hold the watermark back.
	if _, err := f.projector.CatchUp(ctx, "profiles", domain.StreamID(b)); err != nil {
		t.Fatal(err)
	}
	if wm, err := f.projector.AdvanceWatermark(ctx, "profiles"); err != nil || wm != 0 {
		t.Fatalf("watermark with a's events unapplied = %d, %v", wm, err)
	}
	if l, err := f.projector.Lag(ctx, "profiles"); err != nil || l.Events != 4 {
		t.Fatalf("lag = %+v, %v; want the 4 events of a and c", l, err)
	}
	if _, err := f.projector.CatchUp(ctx, "profiles", domain.StreamID(a)); err != nil {
		t.Fatal(err)
	}
	wm, err := f.projector.AdvanceWatermark(ctx, "profiles")
	if err != nil || wm != f.lastPosition(t, b) {
		t.Fatalf("watermark with a and b applied = %d, %v; want b's last position %d", wm, err, f.lastPosition(t, b))
	}
	if err := f.projector.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	for _, name := range f.projector.Names() {
		wm, err := f.projector.Watermark(ctx, name)
		if err != nil || wm != f.lastPosition(t, c) {
			t.Fatalf("%s watermark after the sweep = %d, %v; want %d", name, wm, err, f.lastPosition(t, c))
		}
		if l, err := f.projector.Lag(ctx, name); err != nil || l.Events != 0 {
			t.Fatalf("%s lag after the sweep = %+v, %v", name, l, err)
		}
	}
}

// BenchmarkLagOfIdleAccounts measures Lag with many caught-up accounts and
// one new event: it reads from the watermark, so the time does not grow
// with the number of accounts (compare the two sizes).
func BenchmarkLagOfIdleAccounts(b *testing.B) {
	for _, accounts := range []int{100, 2000} {
		b.Run(fmt.Sprintf("accounts=%d", accounts), func(b *testing.B) {
			f := newFixture(b)
			ctx := context.Background()
			for range accounts {
				f.register(b)
			}
			if err := f.projector.Sweep(ctx); err != nil {
				b.Fatal(err)
			}
			f.register(b) // one account behind
			b.ResetTimer()
			for b.Loop() {
				if l, err := f.projector.Lag(ctx, "profiles"); err != nil || l.Events != 2 {
					b.Fatalf("lag = %+v, %v", l, err)
				}
			}
		})
	}
}

// spendLog appends a log of 9,600 spends over 200 accounts (about 10,000
// events: a ListingRequested carrying its charge each, as the desktop client
// makes them since a spend is one event; about 20,000 when a spend was two),
// and returns how many events the log holds and the accounts.
func spendLog(b *testing.B, f *fixture) (int, []string) {
	var ids []string
	for range 200 {
		id := f.register(b)
		ids = append(ids, id)
		accountstest.Do(b, f.repo, id, func(a *domain.Account, now time.Time) error {
			if err := a.GrantCredits(domain.CreditsGranted{Amount: 1000, Source: domain.SourcePromo}, now); err != nil {
				return err
			}
			for i := range 48 {
				if err := a.RequestListing(fmt.Sprintf("l-%d", i), "B08N5WRWNW", "https://www.amazon.com/dp/B08N5WRWNW", now); err != nil {
					return err
				}
			}
			return nil
		})
	}
	var events int
	if err := f.pool.QueryRow(context.Background(), `SELECT count(*) FROM events`).Scan(&events); err != nil {
		b.Fatal(err)
	}
	return events, ids
}

// BenchmarkRebuild replays the spend log (spendLog) into fresh profiles
// tables and swaps them in, with batches of 1,000 and 5,000 events; it
// reports events/s.
func BenchmarkRebuild(b *testing.B) {
	f := newFixture(b)
	ctx := context.Background()
	events, _ := spendLog(b, f)
	for _, batch := range []int{1000, 5000, 20000} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			start := time.Now()
			for b.Loop() {
				if err := f.projector.Rebuild(ctx, "profiles", batch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(events*b.N)/time.Since(start).Seconds(), "events/s")
		})
	}
}

// BenchmarkLiveCatchUp works off the spend log (spendLog) as the live
// projector does after an outage: every projection from zero, in live
// batches that read the log once for all of them. "grown" is the
// projector's own sizing (Sweep: from BatchSize doubling to MaxBatchSize);
// batch=N holds every batch at N events; grown-each-projection-alone reads
// the log once per projection instead of once for all. It reports events of
// the log per second (each applied to the three projections).
func BenchmarkLiveCatchUp(b *testing.B) {
	f := newFixture(b)
	ctx := context.Background()
	events, _ := spendLog(b, f)
	reset := func(b *testing.B) {
		if _, err := f.pool.Exec(ctx, `TRUNCATE profiles, usage_statistics, transactions, usage_daily, usage_daily_keys, projection_checkpoints, projection_watermarks`); err != nil {
			b.Fatal(err)
		}
	}
	run := func(b *testing.B, catchUp func() error) {
		var took time.Duration
		for b.Loop() {
			b.StopTimer()
			reset(b)
			b.StartTimer()
			start := time.Now()
			if err := catchUp(); err != nil {
				b.Fatal(err)
			}
			took += time.Since(start)
		}
		b.ReportMetric(float64(events*b.N)/took.Seconds(), "events/s")
	}
	b.Run("grown", func(b *testing.B) { run(b, func() error { return f.projector.Sweep(ctx) }) })
	// The alternative to one read for all: each projection reads the log in
	// transactions of its own (as before issue 22), one after the other.
	b.Run("grown-each-projection-alone", func(b *testing.B) {
		run(b, func() error {
			for _, name := range f.projector.Names() {
				for batch := projections.BatchSize; ; batch = min(2*batch, projections.MaxBatchSize) {
					n, err := f.projector.ApplyBatch(ctx, batch, name)
					if err != nil || n < batch {
						if err != nil {
							return err
						}
						break
					}
				}
			}
			return nil
		})
	})
	for _, batch := range []int{projections.BatchSize, 2000, projections.MaxBatchSize} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			run(b, func() error {
				for {
					n, err := f.projector.ApplyBatch(ctx, batch)
					if err != nil || n < batch {
						return err
					}
				}
			})
		})
	}
}

// BenchmarkLiveCatchUpUnderWrites is BenchmarkLiveCatchUp's "grown" while 16
// writers spend on the log's accounts as fast as they can (one transaction
// per spend, as GROUP_COMMIT=off would, all on the same cores): the
// projector works off the 20,000-event backlog and then what the writers
// add meanwhile, until it is caught up with them. It reports the events
// applied per second and the writers' events per second.
func BenchmarkLiveCatchUpUnderWrites(b *testing.B) {
	f := newFixture(b)
	ctx := context.Background()
	_, ids := spendLog(b, f)
	var applied, written int64
	var took time.Duration
	for b.Loop() {
		b.StopTimer()
		if _, err := f.pool.Exec(ctx, `TRUNCATE profiles, usage_statistics, transactions, usage_daily, usage_daily_keys, projection_checkpoints, projection_watermarks`); err != nil {
			b.Fatal(err)
		}
		head := func() int64 {
			var p int64
			if err := f.pool.QueryRow(ctx, `SELECT max(global_position) FROM events`).Scan(&p); err != nil {
				b.Fatal(err)
			}
			return p
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for w := range 16 {
			wg.Go(func() {
				for i := w; ; i += 16 {
					select {
					case <-stop:
						return
					default:
					}
					if _, err := f.repo.Update(ctx, ids[i%len(ids)], eventstore.UpdateOptions{}, func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
						return nil, a.Spend(domain.OperationAPIRequest, "", now)
					}); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		time.Sleep(200 * time.Millisecond) // the writers at full speed
		before := head()
		b.StartTimer()
		start := time.Now()
		if err := f.projector.Sweep(ctx); err != nil {
			b.Fatal(err)
		}
		took += time.Since(start)
		b.StopTimer()
		written += head() - before
		close(stop)
		wg.Wait()
		wm, err := f.projector.Watermark(ctx, "profiles")
		if err != nil {
			b.Fatal(err)
		}
		applied += wm
		b.StartTimer()
	}
	b.ReportMetric(float64(applied)/took.Seconds(), "events/s")
	b.ReportMetric(float64(written)/took.Seconds(), "written-events/s")
}

// A live batch moves only the watermark, no checkpoint row: a per-stream
// CatchUp after it starts from what the watermark covers of the stream, not
// from the stream's (older or missing) checkpoint, and the batches after a
// CatchUp skip what it applied above the watermark. Each event is applied
// once: the tables equal a rebuild's.
func TestCatchUpAfterBatchesThatMovedOnlyTheWatermark(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	a, b := f.register(t), f.register(t)
	f.activity(t, a, 0)
	if _, err := f.projector.CatchUp(ctx, "profiles", domain.StreamID(a)); err != nil { // a checkpoint row, soon below the watermark
		t.Fatal(err)
	}
	if err := f.projector.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	var rows int
	if err := f.pool.QueryRow(ctx, `SELECT count(*) FROM projection_checkpoints`).Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("%d checkpoint rows (%v); want only the CatchUp's", rows, err)
	}
	f.activity(t, a, 1)
	f.activity(t, b, 1)
	// Past the watermark: the new events, applied by CatchUp alone.
	for id, want := range map[string]int{a: 9, b: 10} { // b's round also verifies its email
		n, err := f.projector.CatchUp(ctx, "profiles", domain.StreamID(id))
		if err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Fatalf("CatchUp of %s applied %d events; want the %d after the watermark", id, n, want)
		}
	}
	if n, err := f.projector.CatchUp(ctx, "profiles", domain.StreamID(a)); err != nil || n != 0 {
		t.Fatalf("a second CatchUp applied %d events (%v)", n, err)
	}
	f.activity(t, b, 2)
	if err := f.projector.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	for _, name := range f.projector.Names() {
		if ok, err := f.projector.Passed(ctx, name, f.lastPosition(t, b)); err != nil || !ok {
			t.Fatalf("%s has not passed b's last event (%v)", name, err)
		}
	}
	f.liveIsRebuild(t, 7)
}

// Watermarks out of step: one projection's batches run ahead of the others
// (the applier's try-lock splits projections between workers; a rebuild's
// swap jumps one ahead). A batch over every projection afterwards skips, per
// projection, what that projection's own watermark covers: the one ahead is
// not folded twice and the ones behind miss nothing (the tables equal a
// rebuild's).
func TestBatchesSkipByEachProjectionsOwnWatermark(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	a, b := f.register(t), f.register(t)
	f.activity(t, a, 0)
	f.activity(t, b, 0)
	for { // profiles alone, in small batches, to the head
		n, err := f.projector.ApplyBatch(ctx, 3, "profiles")
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	ahead, err := f.projector.Watermark(ctx, "profiles")
	if err != nil || ahead != f.lastPosition(t, b) {
		t.Fatalf("profiles' watermark = %d, %v; want b's last position %d", ahead, err, f.lastPosition(t, b))
	}
	for _, name := range f.projector.Names() {
		if name == "profiles" {
			continue
		}
		if wm, err := f.projector.Watermark(ctx, name); err != nil || wm >= ahead {
			t.Fatalf("%s watermark = %d, %v; want it behind profiles' %d", name, wm, err, ahead)
		}
	}
	f.activity(t, a, 1)
	if err := f.projector.Sweep(ctx); err != nil { // every projection, from the lowest watermark
		t.Fatal(err)
	}
	var rows int
	if err := f.pool.QueryRow(ctx, `SELECT count(*) FROM projection_checkpoints`).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("%d checkpoint rows (%v); live batches write none", rows, err)
	}
	f.liveIsRebuild(t, 5)
}

// liveIsRebuild fails t unless the live tables equal what every projection
// rebuilt from zero (in batches of batch events) writes: each event applied
// once.
func (f *fixture) liveIsRebuild(t *testing.T, batch int) {
	t.Helper()
	live := dump(t, f.pool)
	for _, name := range f.projector.Names() {
		if err := f.projector.Rebuild(context.Background(), name, batch); err != nil {
			t.Fatal(err)
		}
	}
	if rebuilt := dump(t, f.pool); !reflect.DeepEqual(live, rebuilt) {
		t.Fatalf("live tables differ from a rebuild:\nlive    %v\nrebuilt %v", live, rebuilt)
	}
}
