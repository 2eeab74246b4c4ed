package projections_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/testing/accountstest"
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

// BenchmarkRebuild replays a log of about 20,000 events over 200 accounts,
// mostly spends (a ListingRequested and a CreditsSpent each, as the
// desktop client makes them), into fresh profiles tables and swaps them
// in, with batches of 1,000 and 5,000 events; it reports events/s.
func BenchmarkRebuild(b *testing.B) {
	f := newFixture(b)
	ctx := context.Background()
	for range 200 {
		id := f.register(b)
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
	if err := f.pool.QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&events); err != nil {
		b.Fatal(err)
	}
	for _, batch := range []int{1000, 5000} {
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
