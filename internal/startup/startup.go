// Package startup wires the pieces both processes need at start-up: the
// logger, the database (a private PostgreSQL when DATABASE_URL is unset) and
// its migrations, the message transport and the payment provider. It is
// the one place that turns the process configuration into the packages'
// own options; the packages themselves never see config.Config.
package startup

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/eventbus"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/pgembed"
	"github.com/a2e-automation/app/internal/pgpool"
	"github.com/a2e-automation/app/migrations"
)

// NewLogger returns a JSON logger at the configured level. Its handler
// is slog's JSONHandler that also takes whole lines a hot path formatted
// itself in the same format (LineHandler: bin/api's access log, issue 36),
// each written to w in one Write, never inside another line.
func NewLogger(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(level))); err != nil {
		l = slog.LevelInfo
	}
	lw := &lockedWriter{w: w}
	return slog.New(LineHandler{JSONHandler: slog.NewJSONHandler(lw, &slog.HandlerOptions{Level: l}), w: lw})
}

// LineHandler is NewLogger's handler: slog's JSONHandler (without
// attributes or groups of its own: WithAttrs and WithGroup return plain
// JSONHandlers), and WriteLine for a line formatted as it would format it.
type LineHandler struct {
	*slog.JSONHandler
	w *lockedWriter
}

// WriteLine writes line (one JSON object and its newline) as the handler
// writes its own: one Write, serialized with every other line.
func (h LineHandler) WriteLine(line []byte) error {
	_, err := h.w.Write(line)
	return err
}

// lockedWriter serializes the Writes of the JSONHandler (and of the
// handlers it derives, which share its lock) with WriteLine's.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Database is an open pool and how to release what was started for it.
type Database struct {
	Pool *pgxpool.Pool
	URL  string
	// ReadPool is READ_DATABASE_URL's (a standby), nil without it; only
	// internal/replica reads from it.
	ReadPool *pgxpool.Pool
	stop     func(context.Context) error
}

// Close closes the pools; a private server is left running for the next
// process (make run starts the API and projector against the same one).
func (d *Database) Close() {
	d.Pool.Close()
	if d.ReadPool != nil {
		d.ReadPool.Close()
	}
}

// Stop closes the pools and stops a private server this process started.
func (d *Database) Stop(ctx context.Context) error {
	d.Close()
	if d.stop != nil {
		return d.stop(ctx)
	}
	return nil
}

// OpenDatabase connects to DATABASE_URL with a pool shaped by opts, or in
// development without it starts (or reuses) a private PostgreSQL under
// DATA_DIR/pg. In development it also applies migrations (under goose's
// advisory lock, so processes starting together apply each once); in
// production that is `api migrate`'s job.
func OpenDatabase(ctx context.Context, cfg config.Config, log *slog.Logger, opts pgpool.Options) (*Database, error) {
	db := &Database{URL: cfg.DatabaseURL}
	if db.URL == "" {
		if !cfg.IsDevelopment() {
			return nil, fmt.Errorf("DATABASE_URL is required outside development")
		}
		srv, err := pgembed.Start(ctx, pgembed.Options{DataDir: filepath.Join(cfg.DataDir, "pg"), Logger: log})
		if err != nil {
			return nil, fmt.Errorf("start private PostgreSQL: %w", err)
		}
		log.Info("private PostgreSQL", "dataDir", filepath.Join(cfg.DataDir, "pg"))
		db.URL = srv.URL()
		db.stop = srv.Stop
		if err := ensureDatabase(ctx, db.URL, "a2e"); err != nil {
			return nil, err
		}
		if db.URL, err = pgpool.WithDatabase(db.URL, "a2e"); err != nil {
			return nil, err
		}
	}
	if cfg.IsDevelopment() {
		if err := migrations.Apply(ctx, db.URL); err != nil {
			return nil, err
		}
	}
	pool, err := pgpool.New(ctx, db.URL, opts)
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect: %w", err)
	}
	db.Pool = pool
	if cfg.ReadDatabaseURL != "" {
		// Not pinged: a standby away at start-up sends reads to the primary.
		if opts.AppName != "" {
			opts.AppName += "-reads"
		}
		if db.ReadPool, err = pgpool.New(ctx, cfg.ReadDatabaseURL, opts); err != nil {
			pool.Close()
			return nil, fmt.Errorf("READ_DATABASE_URL: %w", err)
		}
	}
	return db, nil
}

func ensureDatabase(ctx context.Context, adminURL, name string) error {
	pool, err := pgxpool.New(ctx, adminURL)
	if err != nil {
		return fmt.Errorf("connect to private PostgreSQL: %w", err)
	}
	defer pool.Close()
	var exists bool
	if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		return fmt.Errorf("look for database %s: %w", name, err)
	}
	if !exists {
		if _, err := pool.Exec(ctx, `CREATE DATABASE `+name); err != nil {
			return fmt.Errorf("create database %s: %w", name, err)
		}
	}
	return nil
}

// Readiness tells whether the database answers and every migration is
// applied (GET /readyz).
type Readiness struct {
	Pool        *pgxpool.Pool
	DatabaseURL string
}

// Readiness is the check of this database for GET /readyz.
func (d *Database) Readiness() Readiness {
	return Readiness{Pool: d.Pool, DatabaseURL: d.URL}
}

// Check answers "" when ready, else what is wrong and how many migrations
// are pending.
func (r Readiness) Check(ctx context.Context) (problem string, pending int) {
	if err := r.Pool.Ping(ctx); err != nil {
		return "database unreachable", 0
	}
	n, err := migrations.Pending(ctx, r.DatabaseURL)
	if err != nil || n > 0 {
		return "migrations pending", n
	}
	return "", 0
}

// Transport is the message transport the configuration asks for.
func Transport(cfg config.Config) eventbus.Config {
	return eventbus.Config{Kind: cfg.MessageTransport, NATSURL: cfg.NATSURL, StreamMaxAge: cfg.NATSStreamMaxAge, StreamMaxBytes: cfg.NATSStreamMaxBytes}
}

// PaymentProvider is the payment provider the configuration asks for:
// Stripe with its keys, else the simulated one in development.
func PaymentProvider(cfg config.Config) (payments.Provider, error) {
	return payments.NewProvider(payments.StripeConfig{SecretKey: cfg.StripeSecretKey, PriceID: cfg.StripePriceID,
		APIBase: cfg.StripeAPIBase, Timeout: cfg.StripeTimeout, MaxRetries: cfg.StripeMaxRetries}, cfg.IsDevelopment())
}
