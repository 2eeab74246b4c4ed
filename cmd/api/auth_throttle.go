package main

import (
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/httprate"
)

// Sign-in throttles (docs/auth.md): each client IP gets ipAttempts calls a
// minute across the anonymous auth routes, and each account gets
// accountAttempts sign-ins per accountWindow, whoever tries them.
const (
	ipAttempts      = 20
	accountAttempts = 10
	accountWindow   = 15 * time.Minute
)

// throttles are the limiters of one router; counts live in memory, per
// API process.
type throttles struct {
	byIP      func(http.Handler) http.Handler
	byAccount *httprate.RateLimiter
}

func newThrottles(d Deps) throttles {
	tooMany := httprate.WithLimitHandler(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, d.Log, errStatus(http.StatusTooManyRequests, "Too many attempts. Please try again later."))
	})
	byIP := httprate.LimitBy(ipAttempts, time.Minute, func(r *http.Request) (string, error) {
		return httprate.CanonicalizeIP(middleware.GetClientIP(r.Context())), nil
	}, tooMany)
	return throttles{
		byIP:      func(next http.Handler) http.Handler { return clientIP(d)(byIP(next)) },
		byAccount: httprate.NewRateLimiter(accountAttempts, accountWindow, tooMany),
	}
}

// clientIP finds the client's address: the TCP peer, or, behind the
// proxies TRUSTED_PROXIES names, the first address in X-Forwarded-For that
// is not one of them.
func clientIP(d Deps) func(http.Handler) http.Handler {
	if len(d.Config.TrustedProxies) > 0 {
		return middleware.ClientIPFromXFF(d.Config.TrustedProxies...)
	}
	return middleware.ClientIPFromRemoteAddr
}

// limitAccount counts a sign-in to email and answers 429 (true) when the
// account had too many.
func (t throttles) limitAccount(w http.ResponseWriter, r *http.Request, email string) bool {
	return t.byAccount.RespondOnLimit(w, r, strings.ToLower(strings.TrimSpace(email)))
}
