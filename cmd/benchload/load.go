package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/apikeys"
)

type result struct {
	rate       float64
	p50, p99   time.Duration
	lagP99     time.Duration
	non201     int64
	spends     int64
	latencies  []time.Duration
	lagSamples []time.Duration
}

var client = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 256}}

var seq atomic.Int64

func spend(base, key string) (int, error) {
	req, _ := http.NewRequest(http.MethodPost, base+"/v1/listings", strings.NewReader(`{"amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", key)
	req.Header.Set("Idempotency-Key", fmt.Sprintf("bench-%d", seq.Add(1)))
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, nil
}

// load runs c clients for d and samples the lag meanwhile.
func load(ctx context.Context, pool *pgxpool.Pool, base string, keys []string, c int, d time.Duration) *result {
	r := &result{}
	var mu sync.Mutex
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for i := range c {
		wg.Go(func() {
			var mine []time.Duration
			for n := 0; time.Now().Before(deadline); n++ {
				start := time.Now()
				status, err := spend(base, keys[(i+n*c)%len(keys)])
				mine = append(mine, time.Since(start))
				if err != nil || status != http.StatusCreated {
					atomic.AddInt64(&r.non201, 1)
					continue
				}
				atomic.AddInt64(&r.spends, 1)
			}
			mu.Lock()
			r.latencies = append(r.latencies, mine...)
			mu.Unlock()
		})
	}
	stopLag := make(chan struct{})
	lagDone := make(chan struct{})
	go func() { defer close(lagDone); sampleLag(ctx, pool, r, stopLag) }()
	start := time.Now()
	wg.Wait()
	elapsed := time.Since(start)
	close(stopLag)
	<-lagDone
	r.rate = float64(r.spends) / elapsed.Seconds()
	r.p50, r.p99 = pct(r.latencies, 50), pct(r.latencies, 99)
	r.lagP99 = pct(r.lagSamples, 99)
	return r
}

// lagResolution is how often sampleLag notes the log's head and looks at
// the profiles watermark: the lag it reports is exact to about this much.
const lagResolution = 10 * time.Millisecond

// sampleLag notes the log's head every lagResolution and how long the
// profiles watermark takes to pass it. It holds a connection of its own, so
// no other use of the pool delays a look.
func sampleLag(ctx context.Context, pool *pgxpool.Pool, r *result, stop <-chan struct{}) {
	type sample struct {
		head int64
		at   time.Time
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "lag sampler:", err)
		return
	}
	defer conn.Release()
	var pending []sample
	t := time.NewTicker(lagResolution)
	defer t.Stop()
	stopped := false
	for {
		var head, wm int64
		_ = conn.QueryRow(ctx, `SELECT coalesce(max(global_position), 0), coalesce((SELECT position FROM projection_watermarks WHERE projection = 'profiles'), 0) FROM events`).Scan(&head, &wm)
		now := time.Now()
		kept := pending[:0]
		for _, s := range pending {
			if wm >= s.head {
				r.lagSamples = append(r.lagSamples, now.Sub(s.at))
			} else {
				kept = append(kept, s)
			}
		}
		pending = kept
		if !stopped {
			pending = append(pending, sample{head, now})
		}
		if stopped && (len(pending) == 0 || now.Sub(pending[0].at) > 30*time.Second) {
			for _, s := range pending {
				r.lagSamples = append(r.lagSamples, now.Sub(s.at))
			}
			return
		}
		select {
		case <-stop:
			stopped = true
		case <-t.C:
		}
	}
}

func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

func loadUntil(base string, keys []string, c int, stop <-chan struct{}) {
	var wg sync.WaitGroup
	for i := range c {
		wg.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				_, _ = spend(base, keys[(i+n*c)%len(keys)])
			}
		})
	}
	wg.Wait()
}

// spendAndWait spends on key's account and waits until profiles shows it.
func spendAndWait(ctx context.Context, pool *pgxpool.Pool, base, key string) (time.Duration, error) {
	var id string
	if err := pool.QueryRow(ctx, `SELECT account_id::text FROM api_keys WHERE key_hash = $1`, apikeys.Hash(key)).Scan(&id); err != nil {
		return 0, err
	}
	var before int64
	_ = pool.QueryRow(ctx, `SELECT listings_created FROM profiles WHERE account_id = $1`, id).Scan(&before)
	start := time.Now()
	if status, err := spend(base, key); err != nil || status != http.StatusCreated {
		return 0, fmt.Errorf("spend: %d %v", status, err)
	}
	for time.Since(start) < 5*time.Minute {
		var n int64
		_ = pool.QueryRow(ctx, `SELECT listings_created FROM profiles WHERE account_id = $1`, id).Scan(&n)
		if n > before {
			return time.Since(start), nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	return 0, errors.New("the spend never reached profiles")
}
