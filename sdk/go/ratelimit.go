package a2e

import (
	"net/http"
	"strconv"
	"time"
)

// RateLimit is the API key's rate limit as the answer's X-RateLimit-*
// headers told it, on every result (as Stripe's SDKs expose a response's
// headers). A result's RateLimit is nil when the answer carried none (the
// server's rate-limit store was unreachable).
type RateLimit struct {
	// Limit is the requests the key may make per minute (X-RateLimit-Limit).
	Limit int
	// Remaining is the requests it may make right now, this one counted
	// (X-RateLimit-Remaining).
	Remaining int
	// Reset is when the whole allowance is back (X-RateLimit-Reset); it
	// refills continuously before then.
	Reset time.Time
}

// rateLimitOf reads the X-RateLimit-* headers; nil unless all three are
// there and are whole numbers.
func rateLimitOf(h http.Header) *RateLimit {
	limit, err1 := strconv.Atoi(h.Get("X-RateLimit-Limit"))
	remaining, err2 := strconv.Atoi(h.Get("X-RateLimit-Remaining"))
	reset, err3 := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return nil
	}
	return &RateLimit{Limit: limit, Remaining: remaining, Reset: time.Unix(reset, 0).UTC()}
}
