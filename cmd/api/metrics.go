package main

import (
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
)

// withResponseCounts counts the answers by status class
// (http_responses_total{class="2xx"...}): the 5xx rate alert of
// deploy/prometheus/alerts.yml divides the 5xx by the whole. Nothing is
// counted without a registry (handler tests).
func withResponseCounts(reg *prometheus.Registry) func(http.Handler) http.Handler {
	if reg == nil {
		return func(next http.Handler) http.Handler { return next }
	}
	counts := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "http_responses_total",
		Help: "HTTP answers of bin/api by status class (1xx..5xx)."}, []string{"class"})
	if err := reg.Register(counts); err != nil {
		var are prometheus.AlreadyRegisteredError
		if !errors.As(err, &are) {
			panic(err) // a name clash in this binary's own metrics
		}
		counts = are.ExistingCollector.(*prometheus.CounterVec)
	}
	classes := [6]prometheus.Counter{}
	for i, c := range []string{"1xx", "2xx", "3xx", "4xx", "5xx"} {
		classes[i+1] = counts.WithLabelValues(c)
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			next.ServeHTTP(ww, r)
			status := ww.Status()
			if status == 0 {
				status = http.StatusOK // nothing written: net/http answers 200
			}
			if class := status / 100; class >= 1 && class <= 5 {
				classes[class].Inc()
			}
		})
	}
}
