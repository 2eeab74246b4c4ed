package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sony/gobreaker"
)

// ErrUnavailable is Breaker's answer while its store is deemed away: the
// store is not asked, so the answer costs microseconds instead of the
// store's timeouts.
var ErrUnavailable = errors.New("limit store unavailable (circuit open)")

// Breaker settings: three failures in a row open the circuit; after
// breakerCooldown one request probes the store (the others are answered
// at once), and its success closes the circuit again.
const (
	breakerTrips    = 3
	breakerCooldown = 5 * time.Second
)

// Breaker is a circuit breaker (github.com/sony/gobreaker) in front of a
// Limiter whose store can go away (Redis): a dead or frozen Redis would
// otherwise cost every request its dial and read timeouts (0.5 to 1 s).
type Breaker struct {
	inner Limiter
	cb    *gobreaker.CircuitBreaker
}

// NewBreaker guards inner; onChange (may be nil) hears each change of
// state: "closed", "open" or "half-open".
func NewBreaker(inner Limiter, onChange func(from, to string)) *Breaker {
	return &Breaker{inner: inner, cb: gobreaker.NewCircuitBreaker(gobreaker.Settings{
		Name:        "ratelimit-store",
		MaxRequests: 1,
		Timeout:     breakerCooldown,
		ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= breakerTrips },
		// A caller that went away says nothing about the store.
		IsSuccessful: func(err error) bool { return err == nil || errors.Is(err, context.Canceled) },
		OnStateChange: func(_ string, from, to gobreaker.State) {
			if onChange != nil {
				onChange(from.String(), to.String())
			}
		},
	})}
}

// Allow implements Limiter.
func (b *Breaker) Allow(ctx context.Context, key string, l Limit) (Decision, error) {
	v, err := b.cb.Execute(func() (any, error) { return b.inner.Allow(ctx, key, l) })
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return Decision{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if err != nil {
		return Decision{}, err
	}
	return v.(Decision), nil
}
