package main

import (
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/a2e-automation/app/internal/payments"
)

// Sources Stripe.js needs when Stripe is the payment provider (Stripe's
// security guide: the script, its iframes and the API it calls). Without
// Stripe nothing outside this origin is allowed.
const (
	stripeScriptSrc  = "https://js.stripe.com https://*.js.stripe.com"
	stripeFrameSrc   = "https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com"
	stripeConnectSrc = "https://api.stripe.com"
	stripeImgSrc     = "https://*.stripe.com"
)

// contentSecurityPolicy is the policy of every answer. Scripts come only
// from this origin (and Stripe's); no inline script. Inline styles stay
// allowed because the UI libraries (Radix, the toaster) set them at run
// time; they cannot run code.
func contentSecurityPolicy(withStripe bool) string {
	script, frame, connect, img := "'self'", "'none'", "'self'", "'self' data:"
	if withStripe {
		script += " " + stripeScriptSrc
		frame = stripeFrameSrc
		connect += " " + stripeConnectSrc
		img += " " + stripeImgSrc
	}
	return strings.Join([]string{
		"default-src 'self'",
		"script-src " + script,
		"style-src 'self' 'unsafe-inline'",
		"img-src " + img,
		"font-src 'self' data:",
		"connect-src " + connect,
		"frame-src " + frame,
		"frame-ancestors 'none'",
		"form-action 'self'",
		"base-uri 'self'",
		"object-src 'none'",
	}, "; ")
}

// resetPagePrefix is the webapp's password reset pages, whose URL carries
// the reset token: their answers send no Referer anywhere.
const resetPagePrefix = "/reset-password"

// withSecurityHeaders sets the security headers on every answer: HTML,
// JSON, downloads and errors alike.
func withSecurityHeaders(d Deps) func(http.Handler) http.Handler {
	csp := contentSecurityPolicy(d.Payments.ProviderName() == payments.ProviderStripe)
	hsts := !d.Config.IsDevelopment()
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("Content-Security-Policy", csp)
			h.Set("X-Frame-Options", "DENY")
			h.Set("X-Content-Type-Options", "nosniff")
			if strings.HasPrefix(r.URL.Path, resetPagePrefix) {
				h.Set("Referrer-Policy", "no-referrer")
			} else {
				h.Set("Referrer-Policy", "same-origin")
			}
			if hsts {
				h.Set("Strict-Transport-Security", "max-age=63072000; includeSubDomains")
			}
			next.ServeHTTP(w, r)
		})
	}
}

// loopbackOnly refuses, with 404 as if the route did not exist, a request
// that does not come from this machine: its TCP peer and every address in
// X-Forwarded-For must be loopback. Development-only routes (the dev
// mailbox, the simulated provider's controls) use it, so a development
// server reachable from a network still shows them to nobody else.
func loopbackOnly(d Deps) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !fromLoopback(r) {
				writeError(w, r, d.Log, errStatus(http.StatusNotFound, "No such API route"))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

func fromLoopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil || !isLoopback(host) {
		return false
	}
	for _, v := range r.Header.Values("X-Forwarded-For") {
		for _, a := range strings.Split(v, ",") {
			if !isLoopback(strings.TrimSpace(a)) {
				return false
			}
		}
	}
	return r.Header.Get("Forwarded") == ""
}

func isLoopback(host string) bool {
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}
