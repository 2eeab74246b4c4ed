// Package metrics serves a process's Prometheus metrics and Go's profiles
// on an address apart from the public port: the one way every process
// (bin/api, its mail sender, bin/projector) does it.
package metrics

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Off is the address that serves nothing.
const Off = "off"

// Serve serves reg at GET /metrics and Go's profiles at /debug/pprof/ on
// addr, the value of the variable named variable (Off: nowhere), until stop
// is called. The profiles are as private as
// the metrics: production accepts only a loopback or private addr
// (internal/config); make bench-load -pprof reads them.
func Serve(variable, addr string, reg *prometheus.Registry, log *slog.Logger) (stop func(), err error) {
	if addr == Off {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s: listen %s: %w", variable, addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	log.Info("metrics", "addr", "http://"+ln.Addr().String()+"/metrics")
	go func() { _ = srv.Serve(ln) }()
	return func() { _ = srv.Close() }, nil
}
