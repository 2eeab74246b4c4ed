package main

import (
	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// addRoutes is the one place every route is declared.
func addRoutes(r chi.Router, d Deps) {
	r.Get("/healthz", handleHealthz())
	r.Get("/readyz", handleReadyz(d))
	r.Handle("/metrics", promhttp.HandlerFor(d.Registry, promhttp.HandlerOpts{}))
}
