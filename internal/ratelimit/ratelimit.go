// Package ratelimit keeps the product's limits and throttles: the desktop
// API's requests per key, sign-in attempts per client IP and per account.
// One algorithm, GCRA (a leaky bucket of Rate events per Period, all of
// which may come at once), kept either in this process (Memory) or in Redis
// (Redis, through redis_rate) so that several API processes share one
// count. Both answer the same Decision, so the X-RateLimit-* headers mean
// the same whichever is in use.
package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

// Limit is Rate events per Period for each key, all of which may come at
// once (the burst is the rate).
type Limit struct {
	Name   string // the limit's name, part of every key (desktop, ip, signin)
	Rate   int
	Period time.Duration
}

// Decision is the answer for one event.
type Decision struct {
	Allowed    bool
	Limit      int           // the Rate
	Remaining  int           // events still allowed now
	RetryAfter time.Duration // when refused: how long until one is allowed
	ResetAfter time.Duration // how long until the bucket is full again
}

// Limiter decides whether one more event of key may happen under l.
type Limiter interface {
	Allow(ctx context.Context, key string, l Limit) (Decision, error)
}

// Memory keeps the buckets in this process: each API process counts on its
// own.
type Memory struct {
	mu    sync.Mutex
	tat   map[string]time.Time // theoretical arrival time per key
	now   func() time.Time
	swept time.Time
}

// NewMemory returns an empty in-process limiter.
func NewMemory() *Memory { return &Memory{tat: map[string]time.Time{}, now: time.Now} }

// Allow implements Limiter with the same arithmetic as redis_rate's script.
func (m *Memory) Allow(_ context.Context, key string, l Limit) (Decision, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.sweep(now)
	k := l.Name + ":" + key
	emission := l.Period / time.Duration(l.Rate)
	burstOffset := emission * time.Duration(l.Rate)
	tat := m.tat[k]
	if tat.Before(now) {
		tat = now
	}
	newTAT := tat.Add(emission)
	diff := now.Sub(newTAT.Add(-burstOffset))
	if diff < 0 {
		return Decision{Limit: l.Rate, RetryAfter: -diff, ResetAfter: tat.Sub(now)}, nil
	}
	m.tat[k] = newTAT
	return Decision{Allowed: true, Limit: l.Rate, Remaining: int(math.Floor(float64(diff) / float64(emission))), ResetAfter: newTAT.Sub(now)}, nil
}

// sweep drops buckets that are full again, at most once a minute, so idle
// keys do not accumulate.
func (m *Memory) sweep(now time.Time) {
	if now.Sub(m.swept) < time.Minute {
		return
	}
	for k, tat := range m.tat {
		if !tat.After(now) {
			delete(m.tat, k)
		}
	}
	m.swept = now
}

// Redis keeps the buckets in Redis: every process using the same server
// shares one count per key.
type Redis struct {
	limiter *redis_rate.Limiter
}

// NewRedis returns a limiter on client.
func NewRedis(client *redis.Client) *Redis { return &Redis{limiter: redis_rate.NewLimiter(client)} }

// Allow implements Limiter.
func (r *Redis) Allow(ctx context.Context, key string, l Limit) (Decision, error) {
	res, err := r.limiter.Allow(ctx, "a2e:"+l.Name+":"+key, redis_rate.Limit{Rate: l.Rate, Burst: l.Rate, Period: l.Period})
	if err != nil {
		return Decision{}, err
	}
	return Decision{Allowed: res.Allowed > 0, Limit: l.Rate, Remaining: res.Remaining,
		RetryAfter: max(res.RetryAfter, 0), ResetAfter: res.ResetAfter}, nil
}

// redisLog sends go-redis's own messages (a failed dial, say) to the
// process's structured log, at most one line every 10 s.
type redisLog struct {
	log  *slog.Logger
	last atomic.Int64
}

func (l *redisLog) Printf(ctx context.Context, format string, v ...any) {
	if now := time.Now().UnixNano(); now-l.last.Load() > int64(10*time.Second) {
		l.last.Store(now)
		l.log.WarnContext(ctx, "redis: "+fmt.Sprintf(format, v...))
	}
}

// SetLogger routes go-redis's messages to log.
func SetLogger(log *slog.Logger) { redis.SetLogger(&redisLog{log: log}) }

// NewRedisClient connects to redisURL (redis:// or rediss://) with short
// timeouts: a limit check must never hold a request for long when Redis is
// slow or away.
func NewRedisClient(redisURL string) (*redis.Client, error) {
	opts, err := redis.ParseURL(redisURL)
	if err != nil {
		return nil, err
	}
	opts.DialTimeout = time.Second
	opts.ReadTimeout = 500 * time.Millisecond
	opts.WriteTimeout = 500 * time.Millisecond
	opts.PoolTimeout = time.Second
	opts.MaxRetries = 1
	return redis.NewClient(opts), nil
}
