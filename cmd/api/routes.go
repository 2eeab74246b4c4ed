package main

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
)

// addRoutes is the one place the route tree is assembled; each area declares
// its routes in one function (routes_*.go). /metrics is not here: it is
// served apart, on METRICS_ADDR. The request's scope and deadline
// (withRoutedRequest) are set in front of the router, by NewServer.
func addRoutes(r chi.Router, d Deps) {
	r.Use(withResponseCounts(d.Registry), withAccessLog(d.Log), withRecover(d), withSecurityHeaders(d))
	r.MethodNotAllowed(methodNotAllowed(d))
	r.Get("/healthz", handleHealthz())
	r.Get("/readyz", handleReadyz(d))

	r.Route("/api", func(r chi.Router) {
		// Browser calls authenticate with a cookie, so cross-site state
		// changes are refused (Sec-Fetch-Site / Origin checks). Stripe's
		// webhook is signed instead.
		cop := http.NewCrossOriginProtection()
		cop.AddInsecureBypassPattern("POST /api/webhooks/stripe")
		cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			writeError(w, r, d.Log, errStatus(http.StatusForbidden, "Cross-origin request refused"))
		}))
		r.Use(cop.Handler, withCleanInput(d))
		addAccountRoutes(r, d)
		addPaymentRoutes(r, d)
		addStaffRoutes(r, d)
		r.NotFound(apiNotFound(d))
		r.MethodNotAllowed(methodNotAllowed(d))
	})
	r.Route("/v1", func(r chi.Router) {
		r.Use(withDesktopLimit(d), withCleanInput(d))
		addDesktopRoutes(r, d)
		r.NotFound(apiNotFound(d))
		r.MethodNotAllowed(methodNotAllowed(d))
	})
	r.NotFound(handleWebapp(d))
}

func apiNotFound(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, d.Log, errStatus(http.StatusNotFound, "No such API route"))
	}
}

// methodNotAllowed answers 405 as JSON, with the Allow header listing the
// methods the path does take.
func methodNotAllowed(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if rctx := chi.RouteContext(r.Context()); rctx != nil && rctx.Routes != nil {
			var allow []string
			for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
				if rctx.Routes.Match(chi.NewRouteContext(), m, r.URL.Path) {
					allow = append(allow, m)
				}
			}
			w.Header().Set("Allow", strings.Join(allow, ", "))
		}
		writeError(w, r, d.Log, errStatus(http.StatusMethodNotAllowed, "Method not allowed"))
	}
}
