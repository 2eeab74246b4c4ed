package projections

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the projector's Prometheus series.
type Metrics struct {
	lagEvents  *prometheus.GaugeVec
	lagSeconds *prometheus.GaugeVec
	applied    *prometheus.CounterVec
	failures   *prometheus.CounterVec
}

// NewMetrics registers the projector's series on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		lagEvents: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "projection_lag_events", Help: "Events appended but not yet applied by the projection.",
		}, []string{"projection"}),
		lagSeconds: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "projection_lag_seconds", Help: "Age of the oldest event the projection has not applied yet.",
		}, []string{"projection"}),
		applied: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "projection_events_applied_total", Help: "Events of the log the projection has passed (applied, or found applied already).",
		}, []string{"projection"}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "projection_batch_failures_total",
			Help: "Batches that failed and will be retried; a steady rise means the projection is stuck (an event it cannot decode, the database away).",
		}, []string{"projection"}),
	}
	reg.MustRegister(m.lagEvents, m.lagSeconds, m.applied, m.failures)
	return m
}
