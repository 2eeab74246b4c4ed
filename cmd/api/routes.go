package main

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// addRoutes is the one place the route tree is assembled; each area declares
// its routes in one function (routes_*.go).
func addRoutes(r chi.Router, d Deps) {
	r.Use(withRequestID, withAccessLog(d.Log))
	r.Get("/healthz", handleHealthz())
	r.Get("/readyz", handleReadyz(d))
	r.Handle("/metrics", promhttp.HandlerFor(d.Registry, promhttp.HandlerOpts{}))

	r.Route("/api", func(r chi.Router) {
		// Browser calls authenticate with a cookie, so cross-site state
		// changes are refused (Sec-Fetch-Site / Origin checks). Stripe's
		// webhook is signed instead.
		cop := http.NewCrossOriginProtection()
		cop.AddInsecureBypassPattern("POST /api/webhooks/stripe")
		r.Use(cop.Handler)
		addAccountRoutes(r, d)
		addPaymentRoutes(r, d)
		addStaffRoutes(r, d)
		r.NotFound(apiNotFound(d))
	})
	r.Route("/v1", func(r chi.Router) {
		addDesktopRoutes(r, d)
		r.NotFound(apiNotFound(d))
	})
	r.NotFound(handleWebapp(d.Config.WebappDir))
}

func apiNotFound(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, d.Log, errStatus(http.StatusNotFound, "No such API route"))
	}
}
