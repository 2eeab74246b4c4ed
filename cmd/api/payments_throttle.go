package main

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/httprate"

	"github.com/a2e-automation/app/internal/ratelimit"
)

// Payment throttles (issue 25, docs/payments.md#throttles): every call that
// reaches the payment provider for a seller (purchase, subscribe, portal,
// resume, cancel) counts against the signed-in account and against the
// client's IP, so that one account, or a farm of accounts behind one
// address, cannot spend the platform's share of Stripe's rate limit, which
// every seller's checkout depends on. Over either: 429 rate_limited with
// Retry-After. They fail open when the limits store (Redis) cannot answer:
// a paying seller is not stopped by our Redis, and checkouts are still
// reused and made one at a time (payments.Service).
var (
	limitPaymentsAccount = ratelimit.Limit{Name: "payments-account", Rate: 20, Period: 10 * time.Minute}
	limitPaymentsIP      = ratelimit.Limit{Name: "payments-ip", Rate: 60, Period: 10 * time.Minute}
	msgPaymentsTooMany   = "Too many payment requests. Please wait a moment and try again."
)

// throttlePayments counts one payment call of the session's account and of
// the client's IP; requireSession runs first.
func throttlePayments(d Deps) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		count := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ip := httprate.CanonicalizeIP(middleware.GetClientIP(r.Context()))
			if !d.Limits.allow(w, r, check{Key: ip, Limit: limitPaymentsIP, FailOpen: true, TooMany: msgPaymentsTooMany}) ||
				!d.Limits.allow(w, r, check{Key: currentSession(r.Context()).AccountID, Limit: limitPaymentsAccount, FailOpen: true, TooMany: msgPaymentsTooMany}) {
				return
			}
			next.ServeHTTP(w, r)
		})
		return clientIP(d)(count)
	}
}
