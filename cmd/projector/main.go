// Command projector builds the read tables from the event store.
//
//	projector                 consume events until stopped
//	projector -rebuild NAME   replay projection NAME from position 0 into a
//	                          fresh table, swap it in and exit
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/eventbus"
	"github.com/a2e-automation/app/internal/metrics"
	"github.com/a2e-automation/app/internal/pgpool"
	"github.com/a2e-automation/app/internal/startup"
	"github.com/a2e-automation/app/projections"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	startup.TuneGC(os.Getenv)
	if err := run(ctx, os.Args, os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "projector:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	rebuild := fs.String("rebuild", "", "replay this projection from zero into a fresh table and swap it in ("+strings.Join(names(), ", ")+")")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	log := startup.NewLogger(stderr, cfg.LogLevel)
	db, err := startup.OpenDatabase(ctx, cfg, log, pgpool.Options{MaxConns: pgpool.ProjectorMaxConns,
		IdleInTransactionTimeout: 5 * time.Minute, AppName: "a2e-projector"})
	if err != nil {
		return err
	}
	defer db.Close()
	projector := projections.NewProjector(db.Pool, eventstore.New(db.Pool), log, projections.All()...)

	if *rebuild != "" {
		start := time.Now()
		if err := projector.Rebuild(ctx, *rebuild, projections.RebuildBatch); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "rebuilt %s in %s\n", *rebuild, time.Since(start).Round(time.Millisecond))
		return nil
	}

	reg := prometheus.NewRegistry()
	projectorMetrics := projections.NewMetrics(reg)
	stopMetrics, err := metrics.Serve("PROJECTOR_METRICS_ADDR", cfg.ProjectorMetricsAddr, reg, log)
	if err != nil {
		return err
	}
	defer stopMetrics()
	tr, err := eventbus.New(startup.Transport(cfg), db.Pool, nil)
	if err != nil {
		return err
	}
	log.Info("projector running", "projections", projector.Names(), "transport", cfg.MessageTransport)
	tr.Supervise(ctx, projector, projections.RunOptions{Metrics: projectorMetrics}, log)
	return nil
}

func names() []string {
	var out []string
	for _, p := range projections.All() {
		out = append(out, p.Name())
	}
	return out
}
