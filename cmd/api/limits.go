package main

import (
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/ratelimit"
)

// limits applies the API's limits and throttles through one store: this
// process's memory, or Redis (REDIS_URL) shared by every API process. When
// the store cannot answer, each limit follows its policy: the desktop API
// fails open (the request goes through: a paying seller is not stopped by
// our Redis), sign-in fails closed (503: a guesser is not let loose). Both
// are counted in ratelimit_store_errors_total and logged at most every
// 10 s.
type limits struct {
	store   ratelimit.Limiter
	errors  *prometheus.CounterVec
	log     *slog.Logger
	lastLog atomic.Int64 // unix nanoseconds of the last store-error log line
}

func newLimits(cfg config.Config, reg prometheus.Registerer, log *slog.Logger) (*limits, error) {
	l := &limits{log: log, store: ratelimit.NewMemory(), errors: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "ratelimit_store_errors_total",
		Help: "Limit checks the store (Redis) could not answer, by limit and by what the request got (allowed: fail open; refused: fail closed).",
	}, []string{"limit", "outcome"})}
	if err := reg.Register(l.errors); err != nil {
		return nil, err
	}
	if cfg.RedisURL != "" {
		ratelimit.SetLogger(log)
		client, err := ratelimit.NewRedisClient(cfg.RedisURL)
		if err != nil {
			return nil, err
		}
		// Behind a circuit breaker: with Redis dead or frozen, a check
		// costs microseconds instead of its timeouts (issue 25).
		l.store = ratelimit.NewBreaker(ratelimit.NewRedis(client), func(from, to string) {
			log.Warn("rate limit store circuit", "from", from, "to", to)
		})
	}
	return l, nil
}

// The sign-in throttles (docs/auth.md) and the desktop API's limit.
var (
	limitAuthIP = ratelimit.Limit{Name: "ip", Rate: ipAttempts, Period: time.Minute}
	limitSignIn = ratelimit.Limit{Name: "signin", Rate: accountAttempts, Period: accountWindow}
	msgTooMany  = "Too many attempts. Please try again later."
	// An account's API key rotations: 10 at once, then one every 6 minutes.
	limitKeyRotation    = ratelimit.Limit{Name: "keyrotation", Rate: 10, Period: time.Hour}
	msgTooManyRotations = "Too many API key changes. Please try again later."
	// An account's changes to its named keys (create, rotate, revoke;
	// issue 34): 60 at once, then one a minute.
	limitKeyChanges = ratelimit.Limit{Name: "keychanges", Rate: 60, Period: time.Hour}
	// Refused /v1 API keys per client IP: 20 at once, then one every 3 s.
	limitAPIKeyFailures   = ratelimit.Limit{Name: "apikeyfail", Rate: 20, Period: time.Minute}
	msgTooManyKeyFailures = "Too many invalid API keys from this address. Please try again later."
	// What is unavailable while the limits store is away, by route: the
	// throttles fail closed, and the answer names what the caller tried.
	msgSignInDown  = "Sign-in is briefly unavailable. Please try again in a few seconds."
	msgSignUpDown  = "Sign-up is briefly unavailable. Please try again in a few seconds."
	msgResetDown   = "Password reset is briefly unavailable. Please try again in a few seconds."
	desktopLimitOf = func(cfg config.Config) ratelimit.Limit {
		return ratelimit.Limit{Name: "desktop", Rate: cfg.RateLimitPerMinute, Period: time.Minute}
	}
)

// check is one count a route asks of the limits: Key counted under Limit;
// TooMany is the 429's message; FailOpen lets the request through while the
// store is away, else it answers 503 with Down; with Headers, every answer
// the store decided carries X-RateLimit-Limit, -Remaining and -Reset (one
// let through because the store is away has none).
type check struct {
	Key      string
	Limit    ratelimit.Limit
	FailOpen bool
	Headers  bool
	TooMany  string
	Down     string // "" when FailOpen
}

// allow counts c and says whether the request may go on; when not, it has
// answered: 429 with Retry-After, or 503 when the store is away and c fails
// closed.
func (l *limits) allow(w http.ResponseWriter, r *http.Request, c check) bool {
	dec, err := l.store.Allow(r.Context(), c.Key, c.Limit)
	if err != nil && r.Context().Err() != nil {
		return false // the client went away (or the deadline passed): not the store's fault
	}
	if err != nil {
		outcome := "refused"
		if c.FailOpen {
			outcome = "allowed"
		}
		l.errors.WithLabelValues(c.Limit.Name, outcome).Inc()
		if now := time.Now().UnixNano(); now-l.lastLog.Load() > int64(10*time.Second) {
			l.lastLog.Store(now)
			l.log.WarnContext(r.Context(), "rate limit store unreachable", "limit", c.Limit.Name, "outcome", outcome, "err", err)
		}
		if c.FailOpen {
			return true
		}
		w.Header().Set("Retry-After", "5")
		writeError(w, r, l.log, errStatus(http.StatusServiceUnavailable, "%s", c.Down))
		return false
	}
	if c.Headers {
		setRateLimitHeaders(w.Header(), dec.Limit, dec.Remaining, time.Now().Add(dec.ResetAfter).Unix())
	}
	if dec.Allowed {
		return true
	}
	w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(dec.RetryAfter.Seconds())))))
	writeError(w, r, l.log, errStatus(http.StatusTooManyRequests, "%s", c.TooMany))
	return false
}

// setRateLimitHeaders sets X-RateLimit-Limit, -Remaining and -Reset, as
// Header.Set would, in two allocations rather than six (issue 36): the
// canonical names directly, the three numbers in one string, their values
// in one array (each a full slice, len == cap, so an Add copies it).
func setRateLimitHeaders(h http.Header, limit, remaining int, reset int64) {
	var buf [3 * 20]byte
	b := strconv.AppendInt(buf[:0], int64(limit), 10)
	i := len(b)
	b = strconv.AppendInt(b, int64(remaining), 10)
	j := len(b)
	b = strconv.AppendInt(b, reset, 10)
	all := string(b)
	v := [...]string{all[:i], all[i:j], all[j:]}
	vals := v[:] // one allocation: v escapes
	h["X-Ratelimit-Limit"] = vals[0:1:1]
	h["X-Ratelimit-Remaining"] = vals[1:2:2]
	h["X-Ratelimit-Reset"] = vals[2:3:3]
}
