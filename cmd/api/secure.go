package main

import (
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/a2e-automation/app/internal/payments"
)

// contentSecurityPolicy is the policy of every answer. Scripts come only
// from this origin and the payment provider's browser sources (src: Stripe
// asks for Stripe.js's, the simulated provider for none); no inline script. Inline styles stay
// allowed because the UI libraries (Radix, the toaster) set them at run
// time; they cannot run code.
func contentSecurityPolicy(src payments.BrowserSources) string {
	script, frame, connect, img := "'self'", "'none'", "'self'", "'self' data:"
	if src.Script != "" {
		script += " " + src.Script
	}
	if src.Frame != "" {
		frame = src.Frame
	}
	if src.Connect != "" {
		connect += " " + src.Connect
	}
	if src.Img != "" {
		img += " " + src.Img
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
	// Each value is made once, as the one-element slice http.Header holds
	// (the names already canonical), so an answer's headers cost no
	// allocation here (issue 36). A full slice (len == cap): a handler's
	// Header().Add copies it rather than writing into the shared array, and
	// Set replaces it.
	csp := headerValue(contentSecurityPolicy(d.Payments.BrowserSources()))
	hsts := !d.Config.IsDevelopment()
	deny, nosniff := headerValue("DENY"), headerValue("nosniff")
	noReferrer, sameOrigin := headerValue("no-referrer"), headerValue("same-origin")
	hstsValue := headerValue("max-age=63072000; includeSubDomains")
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h["Content-Security-Policy"] = csp
			h["X-Frame-Options"] = deny
			h["X-Content-Type-Options"] = nosniff
			if strings.HasPrefix(r.URL.Path, resetPagePrefix) {
				h["Referrer-Policy"] = noReferrer
			} else {
				h["Referrer-Policy"] = sameOrigin
			}
			if hsts {
				h["Strict-Transport-Security"] = hstsValue
			}
			next.ServeHTTP(w, r)
		})
	}
}

// headerValue is v as an http.Header value made once for every answer:
// one element, no spare capacity.
func headerValue(v string) []string { return []string{v}[:1:1] }

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

// clientAddressHeader reports whether a header's name says it names the
// client, as proxies and CDNs spell it: X-Forwarded-For and other …-For
// chains, X-Real-IP, CF-Connecting-IP, True-Client-IP, X-Client-IP,
// Fastly-Client-IP, Fly-Client-IP, X-Envoy-External-Address,
// X-Originating-IP. Every address such a header holds must be loopback
// (a value that is no address at all fails too).
func clientAddressHeader(name string) bool {
	n := strings.ToLower(name)
	if strings.HasSuffix(n, "-for") {
		return true
	}
	for _, part := range []string{"client-ip", "real-ip", "connecting-ip", "client-addr", "external-addr", "originating-ip", "remote-addr"} {
		if strings.Contains(n, part) {
			return true
		}
	}
	return false
}

// fromLoopback reports whether r comes from this machine: its TCP peer is
// loopback and no header names another address. Which header a same-host
// proxy names the client in is not ours to know (issue 31: Fly-Client-IP,
// X-Envoy-External-Address), so the check is not a list of names: the
// headers whose names say they carry the client (clientAddressHeader) must
// hold loopback addresses only, Forwarded's for= nodes too, and any other
// header holding an IP address that is not loopback refuses the request.
// TRUSTED_PROXIES plays no part here: a development route has no proxy to
// trust.
func fromLoopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil || !isLoopback(host) {
		return false
	}
	for name, values := range r.Header {
		for _, v := range values {
			if !loopbackHeader(name, v) {
				return false
			}
		}
	}
	return true
}

// loopbackHeader reports whether one header line names no address but
// loopback ones.
func loopbackHeader(name, v string) bool {
	if strings.EqualFold(name, "Forwarded") {
		// RFC 7239: for=node in each element, by= and the rest ignored.
		for _, elem := range strings.Split(v, ",") {
			for _, pair := range strings.Split(elem, ";") {
				k, val, ok := strings.Cut(strings.TrimSpace(pair), "=")
				if ok && strings.EqualFold(k, "for") && !isLoopbackNode(val) {
					return false
				}
			}
		}
		return true
	}
	strict := clientAddressHeader(name)
	for _, a := range strings.Split(v, ",") {
		if strict && !isLoopbackNode(a) {
			return false
		}
		if !strict && isAddressNode(a) && !isLoopbackNode(a) {
			return false
		}
	}
	return true
}

// isAddressNode reports whether node is an IP address, with or without a
// port or brackets.
func isAddressNode(node string) bool {
	node = strings.Trim(strings.TrimSpace(node), `"`)
	if _, err := netip.ParseAddrPort(node); err == nil {
		return true
	}
	_, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(node, "["), "]"))
	return err == nil
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
