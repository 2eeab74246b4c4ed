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
	"time"

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
	return NewBufferedLogger(w, level, 0)
}

// NewBufferedLogger is NewLogger whose WriteLine lines (bin/api's access
// log) are gathered for up to flushEvery, or 64 KiB, and written together
// (issue 36: one write to stderr per request was 2–4 % of bin/api's CPU
// under load, and woke the log's reader as often). Every other line (slog's
// own, at any level) is written at once, after the lines gathered before
// it, so the order holds and a warning or error is out when Log returns.
// The process calls Flush (FlushLog) before it exits; lines gathered when
// the process dies without it (a crash, SIGKILL) are lost, flushEvery's
// worth at most. flushEvery 0 writes each line at once.
func NewBufferedLogger(w io.Writer, level string, flushEvery time.Duration) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(level))); err != nil {
		l = slog.LevelInfo
	}
	lw := &lockedWriter{w: w, every: flushEvery}
	return slog.New(LineHandler{JSONHandler: slog.NewJSONHandler(lw, &slog.HandlerOptions{Level: l}), w: lw})
}

// FlushLog writes what log's handler has gathered, if it gathers
// (NewBufferedLogger's); a process calls it last.
func FlushLog(log *slog.Logger) error {
	if h, ok := log.Handler().(LineHandler); ok {
		return h.Flush()
	}
	return nil
}

// LineHandler is NewLogger's handler: slog's JSONHandler (without
// attributes or groups of its own: WithAttrs and WithGroup return plain
// JSONHandlers), and WriteLine for a line formatted as it would format it.
type LineHandler struct {
	*slog.JSONHandler
	w *lockedWriter
}

// WriteLine writes line (one JSON object and its newline) as the handler
// writes its own, never inside another line, and in the order given; with
// NewBufferedLogger's flushEvery, within that time.
func (h LineHandler) WriteLine(line []byte) error {
	return h.w.gather(line)
}

// Flush writes the lines gathered so far.
func (h LineHandler) Flush() error { return h.w.flush() }

// maxGathered is how many bytes of lines are gathered before they are
// written by the line that passes it, without waiting for the timer.
const maxGathered = 64 << 10

// lockedWriter serializes the Writes of the JSONHandler (and of the
// handlers it derives, which share it) with WriteLine's lines, gathering
// the latter when every > 0. Lines go into buf under mu; flush, under
// wmu, takes buf whole and writes it, so writes keep the lines' order and
// the lines are appended while a write is under way.
type lockedWriter struct {
	every time.Duration

	mu    sync.Mutex
	buf   []byte
	armed bool // the timer will flush buf
	timer *time.Timer

	wmu   sync.Mutex // one write at a time, in order
	spare []byte     // the buffer last written, for the next swap; under wmu
	w     io.Writer
}

// Write writes p (one of slog's lines) after the lines gathered before it,
// before it returns.
func (l *lockedWriter) Write(p []byte) (int, error) {
	if l.every <= 0 {
		l.wmu.Lock()
		defer l.wmu.Unlock()
		return l.w.Write(p)
	}
	l.mu.Lock()
	l.buf = append(l.buf, p...)
	l.mu.Unlock()
	if err := l.flush(); err != nil {
		return 0, err
	}
	return len(p), nil
}

// gather adds line to the lines the timer writes, or writes it at once
// (every 0, or past maxGathered with the lines before it).
func (l *lockedWriter) gather(line []byte) error {
	if l.every <= 0 {
		_, err := l.Write(line)
		return err
	}
	l.mu.Lock()
	l.buf = append(l.buf, line...)
	full, arm := len(l.buf) >= maxGathered, !l.armed
	if arm && !full {
		l.armed = true
		if l.timer == nil {
			l.timer = time.AfterFunc(l.every, l.flushOnTimer)
		} else {
			l.timer.Reset(l.every)
		}
	}
	l.mu.Unlock()
	if full {
		return l.flush()
	}
	return nil
}

func (l *lockedWriter) flushOnTimer() {
	l.mu.Lock()
	l.armed = false
	l.mu.Unlock()
	_ = l.flush()
}

// flush writes the lines gathered so far in one Write.
func (l *lockedWriter) flush() error {
	l.wmu.Lock()
	defer l.wmu.Unlock()
	l.mu.Lock()
	out := l.buf
	l.buf = l.spare[:0]
	l.mu.Unlock()
	if len(out) == 0 {
		l.spare = out
		return nil
	}
	_, err := l.w.Write(out)
	if cap(out) <= 4*maxGathered { // a burst's larger buffer is not kept
		l.spare = out[:0]
	} else {
		l.spare = nil
	}
	return err
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
