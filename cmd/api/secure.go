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
// that does not come from this machine: its TCP peer and every address any
// forwarding header names must be loopback. Development-only routes (the dev
// mailbox, the simulated provider's controls) use it, so a development
// server reachable from a network, even through a proxy on this machine,
// still shows them to nobody else.
func loopbackOnly(d Deps) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			noStore(w) // the dev mailbox holds codes and reset links
			if !fromLoopback(r) {
				writeError(w, r, d.Log, errStatus(http.StatusNotFound, "No such API route"))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// forwardingHeaders are the headers proxies and CDNs name the client in,
// one address or a comma-separated chain each. A same-host proxy sets one
// of them instead of X-Forwarded-For (nginx's X-Real-IP, Cloudflare's
// CF-Connecting-IP, Akamai's True-Client-IP), so all of them count.
var forwardingHeaders = []string{"X-Forwarded-For", "X-Real-IP", "CF-Connecting-IP", "True-Client-IP",
	"X-Client-IP", "X-Cluster-Client-IP", "Fastly-Client-IP", "X-Original-Forwarded-For"}

func fromLoopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil || !isLoopback(host) {
		return false
	}
	for _, name := range forwardingHeaders {
		for _, v := range r.Header.Values(name) {
			for _, a := range strings.Split(v, ",") {
				if !isLoopbackNode(a) {
					return false
				}
			}
		}
	}
	// Forwarded (RFC 7239): for=node in each element, by= and the rest ignored.
	for _, v := range r.Header.Values("Forwarded") {
		for _, elem := range strings.Split(v, ",") {
			for _, pair := range strings.Split(elem, ";") {
				k, val, ok := strings.Cut(strings.TrimSpace(pair), "=")
				if ok && strings.EqualFold(k, "for") && !isLoopbackNode(val) {
					return false
				}
			}
		}
	}
	return true
}

// isLoopbackNode reports whether one forwarded node ("127.0.0.1",
// "\"[::1]:4711\"", "127.0.0.1:80") is a loopback address. Names,
// "unknown" and obfuscated identifiers are not.
func isLoopbackNode(node string) bool {
	node = strings.Trim(strings.TrimSpace(node), `"`)
	if ap, err := netip.ParseAddrPort(node); err == nil {
		return ap.Addr().Unmap().IsLoopback()
	}
	return isLoopback(strings.TrimSuffix(strings.TrimPrefix(node, "["), "]"))
}

func isLoopback(host string) bool {
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}
