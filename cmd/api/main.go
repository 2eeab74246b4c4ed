// Command api is the HTTP server of the product: the browser API, the
// desktop client's metered /v1 API, Stripe webhooks and the built webapp.
//
//	api [-with-projector] [-mail-sender=false]   serve (default)
//	api mail-sender         deliver the mail outbox only
//	api migrate             apply database migrations and exit
//	api staff add EMAIL     make an existing account support staff
//	api staff remove EMAIL  undo it
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/errgroup"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/app"
	"github.com/a2e-automation/app/internal/app/query"
	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/downloads"
	"github.com/a2e-automation/app/internal/eventbus"
	"github.com/a2e-automation/app/internal/listings"
	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/metrics"
	"github.com/a2e-automation/app/internal/pgpool"
	"github.com/a2e-automation/app/internal/replica"
	"github.com/a2e-automation/app/internal/retention"
	"github.com/a2e-automation/app/internal/staff"
	"github.com/a2e-automation/app/internal/startup"
	"github.com/a2e-automation/app/internal/webhooks"
	"github.com/a2e-automation/app/migrations"
	"github.com/a2e-automation/app/projections"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	startup.TuneGC(os.Getenv)
	if err := run(ctx, os.Args, os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "api:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	log := startup.NewBufferedLogger(stderr, cfg.LogLevel, cfg.AccessLogFlush)
	defer func() { _ = startup.FlushLog(log) }() // last: the access lines gathered
	if len(args) > 1 && args[1] == "staff" {
		return staffCommand(ctx, cfg, log, args[2:], stdout)
	}
	if len(args) > 1 && args[1] == "mail-sender" {
		return mailSenderCommand(ctx, cfg, log)
	}
	if len(args) > 1 && args[1] == "migrate" {
		if cfg.DatabaseURL == "" {
			return errors.New("migrate: DATABASE_URL is required")
		}
		if err := migrations.Apply(ctx, cfg.DatabaseURL); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "migrations applied")
		return nil
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o serveOptions
	fs.BoolVar(&o.withProjector, "with-projector", false, "run the projector in this process")
	fs.BoolVar(&o.mailSender, "mail-sender", true, "deliver the mail outbox from this process (false: another process does, `api mail-sender`)")
	fs.StringVar(&o.addr, "addr", "", "listen address (default :PORT)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if o.addr == "" {
		o.addr = ":" + strconv.Itoa(cfg.Port)
	}
	return serve(ctx, cfg, log, o, stdout)
}

// wiring is what newDeps built: the handlers' Deps and, for the process
// (closing the group commit) and the tests, the parts under them.
type wiring struct {
	Deps
	Accounts *accounts.Repository
	Keys     *apikeys.Keys
	Reader   *projections.Reader
	Mailbox  *mail.Mailbox
}

// newDeps builds the HTTP layer's services on an open database; the tests
// build theirs the same way. Handlers receive the application and services,
// never the pool. The steps are in wiring.go.
func newDeps(cfg config.Config, log *slog.Logger, db *startup.Database) (wiring, error) {
	pool := db.Pool
	reads := replica.New(pool, db.ReadPool, 0, log) // READ_DATABASE_URL, else the primary
	keys, err := apikeys.New(cfg.Secret)
	if err != nil {
		return wiring{}, err
	}
	installers, sitePages, err := newSite(cfg, log)
	if err != nil {
		return wiring{}, err
	}
	reg := newRegistry(pool, log)
	if err := seedVero(pool); err != nil {
		return wiring{}, err
	}
	sender, err := newMailSender(cfg, pool, log, reg)
	if err != nil {
		return wiring{}, err
	}
	store := eventstore.New(pool)
	repo := newAccounts(cfg, store, reg)
	s, err := newServices(cfg, log, pool, reg, repo, sender)
	if err != nil {
		return wiring{}, err
	}
	commands, hookWorker := newCommands(cfg, log, pool, store, repo, keys, s, sender)
	projector := projections.NewProjector(pool, store, log, projections.All()...)
	reader := projections.NewReader(pool).WithReads(reads)
	mailbox := mail.NewMailbox(pool, log)
	queries := query.New(query.Sources{
		ReadTables: reader, Projector: projector, Accounts: repo, Keys: keys, KeyLister: s.auth, Sandbox: s.sandboxes,
		Listings: listings.NewLedger(store).WithReads(reads), Support: s.support,
		Staff: query.StaffConsoleOf(staff.NewConsole(pool, repo, cfg.Secret)), Audit: s.audit,
		Pages: sitePages, Mailbox: mailbox, DailyUsage: query.NewUsage(pool, reads), Webhooks: s.hooks, Now: repo.Now, Log: log,
	})
	return wiring{Deps: Deps{
		App:    app.Application{Commands: commands, Queries: queries},
		Config: cfg, Log: log, Auth: s.auth, APIKeys: s.keyCache, Limits: s.limits, Audit: s.audit,
		Payments: s.payments, Downloads: downloads.NewService(installers, repo, cfg.Secret),
		Projections: projector, Resets: s.resets, Mail: sender, Webhooks: hookWorker, Registry: reg, Readiness: db.Readiness(),
	}, Accounts: repo, Keys: keys, Reader: reader, Mailbox: mailbox}, nil
}

// webhookPolicy is the rule for webhook URLs: in development http:// and
// local receivers are allowed, in production only https:// to public
// addresses.
func webhookPolicy(cfg config.Config) webhooks.Policy {
	return webhooks.Policy{Development: cfg.IsDevelopment()}
}

// sessionPolicy is the bound of sessions SESSION_IDLE_TIMEOUT and
// STAFF_SESSION_IDLE_TIMEOUT set.
func sessionPolicy(cfg config.Config) auth.SessionPolicy {
	return auth.SessionPolicy{Lifetime: auth.SessionTTL, Idle: cfg.SessionIdle, StaffIdle: cfg.StaffSessionIdle}
}

// apiPoolOptions size the API process's pool (README, connection budget)
// and bound its statements and open transactions.
func apiPoolOptions(cfg config.Config, withProjector bool) pgpool.Options {
	o := pgpool.Options{MaxConns: pgpool.APIMaxConns, StatementTimeout: cfg.DBStatementTimeout,
		IdleInTransactionTimeout: time.Minute, AppName: "a2e-api"}
	if withProjector {
		o.MaxConns += pgpool.ProjectorMaxConns
	}
	return o
}

// newHTTPServer bounds every connection: slow or stalled clients cannot
// hold a goroutine and a socket for ever. Writes get the request deadline
// and some; the installer download extends its own.
func newHTTPServer(h http.Handler, cfg config.Config) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      cfg.RequestTimeout + 10*time.Second,
		IdleTimeout:       2 * time.Minute,
	}
}

// serveOptions are the flags of the serving process.
type serveOptions struct {
	addr          string
	withProjector bool
	mailSender    bool
}

// mailSenderCommand runs only the mail sender (and /metrics on
// MAIL_SENDER_METRICS_ADDR), for a deployment that runs it apart from the API
// processes, started with -mail-sender=false.
func mailSenderCommand(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	db, err := startup.OpenDatabase(ctx, cfg, log, pgpool.Options{MaxConns: 2, StatementTimeout: cfg.DBStatementTimeout, AppName: "a2e-mail-sender"})
	if err != nil {
		return err
	}
	defer db.Close()
	mailer, err := mail.New(cfg.SMTPURL, cfg.MailFrom, cfg.SMTPTimeout, db.Pool, log)
	if err != nil {
		return err
	}
	sender := mail.NewSender(db.Pool, mailer, log, mail.SenderOptions{Timeout: cfg.SMTPTimeout, GiveUpAfter: cfg.MailGiveUpAfter})
	reg := prometheus.NewRegistry()
	if err := sender.Register(reg); err != nil {
		return err
	}
	stopMetrics, err := metrics.Serve("MAIL_SENDER_METRICS_ADDR", cfg.MailSenderMetricsAddr, reg, log)
	if err != nil {
		return err
	}
	defer stopMetrics()
	log.Info("mail sender running")
	sender.Run(ctx)
	return nil
}

func serve(ctx context.Context, cfg config.Config, log *slog.Logger, o serveOptions, stdout io.Writer) error {
	addr, withProjector := o.addr, o.withProjector
	db, err := startup.OpenDatabase(ctx, cfg, log, apiPoolOptions(cfg, withProjector))
	if err != nil {
		return err
	}
	defer db.Close() // last: every actor below has exited

	d, err := newDeps(cfg, log, db)
	if err != nil {
		return err
	}
	defer d.Accounts.Close() // after the group: no request or worker appends any more
	if !cfg.IsDevelopment() {
		warnUnprotectedAudit(ctx, log, d.Deps)
	}
	var workers []func(context.Context)
	if withProjector {
		tr, err := eventbus.New(startup.Transport(cfg), db.Pool, nil)
		if err != nil {
			return err
		}
		metrics := projections.NewMetrics(d.Registry)
		// Supervised: a projector failure is logged and retried, never the
		// end of the API.
		workers = append(workers, func(ctx context.Context) {
			tr.Supervise(ctx, d.Projections, projections.RunOptions{Metrics: metrics}, log)
		})
	}
	pruner := retention.New(db.Pool, log, retention.Options{IdempotencyKeyTTL: cfg.IdempotencyKeyTTL,
		ConsumerGroups: eventbus.OutboxGroups(cfg.MessageTransport)})
	if err := pruner.Register(d.Registry); err != nil {
		return err
	}
	workers = append(workers,
		func(ctx context.Context) { d.App.Commands.ExpireCredits.Sweep(ctx, 30*time.Second, log) },
		func(ctx context.Context) { d.App.Commands.RunRecharges.Run(ctx, 2*time.Second, nil) }, // auto-recharge's charges
		func(ctx context.Context) { d.App.Commands.ExpireAPIKeys.Sweep(ctx, 30*time.Second, log) },
		func(ctx context.Context) {
			d.APIKeys.RunUsedFlusher(ctx, 10*time.Second, func(err error) { log.Warn("api keys last used", "err", err) })
		},
		func(ctx context.Context) { d.Resets.Run(ctx, time.Second) },
		func(ctx context.Context) { pruner.Run(ctx, time.Minute) }, // in every API process; one prunes at a time
		d.Webhooks.Run) // in every API process: one dispatches at a time, each delivery is claimed by one
	if o.mailSender {
		workers = append(workers, d.Mail.Run)
	}

	handler, err := NewServer(d.Deps)
	if err != nil {
		return err
	}
	stopMetrics, err := metrics.Serve("METRICS_ADDR", cfg.MetricsAddr, d.Registry, log)
	if err != nil {
		return err
	}
	defer stopMetrics()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", addr, err)
	}
	srv := newHTTPServer(handler, cfg)
	log.Info("listening", "addr", ln.Addr().String(), "env", cfg.Env, "projector", withProjector, "mailSender", o.mailSender)
	fmt.Fprintf(stdout, "listening on http://%s\n", ln.Addr().String())
	return runGroup(ctx, srv, ln, workers, log)
}

// shutdownTimeout bounds the requests under way at a stop.
const shutdownTimeout = 10 * time.Second

// runGroup runs the HTTP server and the background workers as one group
// that returns only when every one has exited, so the caller closes the
// pool after the last write. A stop (ctx ending, or the server failing)
// goes in order: the server stops taking requests and finishes those under
// way (shutdownTimeout at most), then the workers are told to stop and each
// finishes what it has started (the mail sender its delivery under way,
// SMTP_TIMEOUT at most).
func runGroup(ctx context.Context, srv *http.Server, ln net.Listener, workers []func(context.Context), log *slog.Logger) error {
	g, stopping := errgroup.WithContext(ctx)
	// The workers' own context ends only once the server has drained: a
	// request under way may still queue mail.
	workCtx, stopWorkers := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWorkers()
	for _, w := range workers {
		g.Go(func() error { w(workCtx); return nil })
	}
	g.Go(func() error {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	g.Go(func() error {
		<-stopping.Done()
		log.Info("stopping: HTTP server, then workers")
		shutdownCtx, done := context.WithTimeout(context.Background(), shutdownTimeout)
		defer done()
		err := srv.Shutdown(shutdownCtx)
		stopWorkers()
		return err
	})
	return g.Wait()
}
