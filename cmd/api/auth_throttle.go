package main

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/httprate"
)

// Sign-in throttles (docs/auth.md): each client IP gets ipAttempts calls a
// minute across the anonymous auth routes, and each account gets
// accountAttempts sign-ins per accountWindow, whoever tries them. The
// counts live in the limits store (shared through Redis when REDIS_URL is
// set); when it cannot answer, these throttles fail closed.
const (
	ipAttempts      = 20
	accountAttempts = 10
	accountWindow   = 15 * time.Minute
)

// throttles are the sign-in throttles of one router.
type throttles struct {
	d Deps
}

func newThrottles(d Deps) throttles { return throttles{d: d} }

// byIP counts every anonymous auth call against the client's IP, in one
// bucket for all of them; down is what the 503 says is unavailable when
// the count cannot be kept.
func (t throttles) byIP(down string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		count := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ip := httprate.CanonicalizeIP(middleware.GetClientIP(r.Context()))
			if !t.d.Limits.allow(w, r, check{Key: ip, Limit: limitAuthIP, TooMany: msgTooMany, Down: down}) {
				return
			}
			next.ServeHTTP(w, r)
		})
		return clientIP(t.d)(count)
	}
}

// clientIP finds the client's address: the TCP peer, or, behind the
// proxies TRUSTED_PROXIES names, the first address in X-Forwarded-For that
// is not one of them. No other header is read. A trusted proxy's request
// without X-Forwarded-For is the proxy's own (chi leaves it without an
// address, which would put every such request in one bucket).
func clientIP(d Deps) func(http.Handler) http.Handler {
	if len(d.Config.TrustedProxies) == 0 {
		return middleware.ClientIPFromRemoteAddr
	}
	fromXFF := middleware.ClientIPFromXFF(d.Config.TrustedProxies...)
	return func(next http.Handler) http.Handler {
		orPeer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if middleware.GetClientIP(r.Context()) == "" {
				middleware.ClientIPFromRemoteAddr(next).ServeHTTP(w, r)
				return
			}
			next.ServeHTTP(w, r)
		})
		return fromXFF(orPeer)
	}
}

// limitAccount counts a sign-in to email (already normalised) and answers
// 429 or 503 (true) when it may not go on.
func (t throttles) limitAccount(w http.ResponseWriter, r *http.Request, email string) bool {
	return !t.d.Limits.allow(w, r, check{Key: email, Limit: limitSignIn, TooMany: msgTooMany, Down: msgSignInDown})
}
