package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/dbmetrics"
	"github.com/a2e-automation/app/internal/downloads"
	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/pages"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/sandbox"
	"github.com/a2e-automation/app/internal/staffaudit"
	"github.com/a2e-automation/app/internal/startup"
	"github.com/a2e-automation/app/internal/supportrequests"
	"github.com/a2e-automation/app/internal/vero"
	"github.com/a2e-automation/app/internal/webhooks"
)

// newDeps's steps, in its order.

// newSite opens the installers and the site's pages. In production an
// installer that is not a Windows executable is never served, and its
// absence stops the start-up here.
func newSite(cfg config.Config, log *slog.Logger) (*downloads.Installers, *pages.Store, error) {
	installers := downloads.NewInstallers(cfg.DownloadsDir, !cfg.IsDevelopment(), downloads.WithLogger(log))
	if err := checkInstaller(cfg, log, installers); err != nil {
		return nil, nil, err
	}
	sitePages := pages.New(cfg.PagesDir, pages.Vars{ProductName: cfg.ProductName, SupportEmail: cfg.SupportEmail, APIBaseURL: cfg.BaseURL})
	checkPages(cfg, log, sitePages)
	return installers, sitePages, nil
}

// newRegistry is the process's metrics registry: Go, process and pool.
func newRegistry(pool *pgxpool.Pool, log *slog.Logger) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		dbmetrics.New(pool, log))
	return reg
}

// seedVero fills vero_brands. The VeRO check answers from it: an empty
// table would call every brand unprotected, so a failed seed stops the
// start-up.
func seedVero(pool *pgxpool.Pool) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := vero.Seed(ctx, pool)
	return err
}

// newMailSender is the mail outbox's sender over SMTP_URL, its metrics
// registered.
func newMailSender(cfg config.Config, pool *pgxpool.Pool, log *slog.Logger, reg *prometheus.Registry) (*mail.Sender, error) {
	mailer, err := mail.New(cfg.SMTPURL, cfg.MailFrom, cfg.SMTPTimeout, pool, log)
	if err != nil {
		return nil, err
	}
	sender := mail.NewSender(pool, mailer, log, mail.SenderOptions{Timeout: cfg.SMTPTimeout, GiveUpAfter: cfg.MailGiveUpAfter})
	if err := sender.Register(reg); err != nil {
		return nil, err
	}
	return sender, nil
}

// newAccounts is the account repository with its mails and, when
// GROUP_COMMIT is on, the spend path's group commit and its metrics.
func newAccounts(cfg config.Config, store *eventstore.Store, reg *prometheus.Registry) *accounts.Repository {
	repo := accounts.NewRepository(store, nil)
	repo.UseAlerts(accounts.AlertMails(cfg.ProductName, cfg.BaseURL))          // balance alerts, mailed in the deciding transaction
	repo.UseRechargeMail(accounts.RechargeMails(cfg.ProductName, cfg.BaseURL)) // auto-recharge's mails, likewise
	reg.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "spend_account_cache_hits_total",
			Help: "Spend decider runs that took their account as this process's previous spend of it left it, instead of decoding the stored snapshot (a retried spend counts once per run)."},
			func() float64 { n, _ := repo.AccountCacheStats(); return float64(n) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "spend_account_cache_misses_total",
			Help: "Spend decider runs that decoded their account's stored snapshot or stream (no account kept, or the stream moved since; a retried spend counts once per run)."},
			func() float64 { _, n := repo.AccountCacheStats(); return float64(n) }))
	if !cfg.GroupCommit {
		return repo
	}
	b := store.NewBatcher(eventstore.BatcherOptions{
		Lanes: cfg.GroupCommitLanes, InFlight: cfg.GroupCommitInFlight, MaxBatch: cfg.GroupCommitMaxBatch, PipelineMin: cfg.GroupCommitPipelineMin, Linger: cfg.GroupCommitLinger, Timeout: cfg.RequestTimeout,
	})
	repo.UseGroupCommit(b)
	reg.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "group_commits_total",
			Help: "Group commits (transactions of the spend path's batcher) run."},
			func() float64 { n, _ := b.Stats(); return float64(n) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "group_commit_commands_total",
			Help: "Commands the group commits carried; divided by group_commits_total, the mean batch."},
			func() float64 { _, n := b.Stats(); return float64(n) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "group_commit_seconds_total",
			Help: "Time the group commits took, summed; divided by group_commits_total, the mean latency."},
			func() float64 { return b.Busy().Seconds() }))
	return repo
}

// services are the stores and services the commands, queries and
// handlers share.
type services struct {
	auth      *auth.Store
	keyCache  *auth.KeyCache
	resets    *auth.ResetWorker
	limits    *limits
	support   *supportrequests.Store
	payments  *payments.Service
	sandboxes *sandbox.Store
	audit     *staffaudit.Log
	hooks     *webhooks.Store
}

// newServices builds the shared stores and services.
func newServices(cfg config.Config, log *slog.Logger, pool *pgxpool.Pool, reg *prometheus.Registry, repo *accounts.Repository, sender *mail.Sender) (services, error) {
	provider, err := startup.PaymentProvider(cfg)
	if err != nil {
		return services{}, err
	}
	lims, err := newLimits(cfg, reg, log)
	if err != nil {
		return services{}, err
	}
	s := services{auth: auth.NewStore(pool, cfg.Secret).WithSessionPolicy(sessionPolicy(cfg)),
		limits: lims, support: supportrequests.NewStore(pool), sandboxes: sandbox.New(pool), audit: staffaudit.New(pool)}
	s.resets = s.auth.NewResetWorker(func(to, token string) mail.Message {
		return resetMail(cfg.ProductName, cfg.BaseURL, to, token)
	}, sender.Nudge, log)
	s.payments = payments.NewService(pool, repo, provider, cfg.StripeWebhookSecret, log,
		payments.WithBilling(cfg.ProductName, cfg.BaseURL, sender.Nudge))
	s.keyCache = auth.NewKeyCache(s.auth, auth.DefaultKeyCacheSize)
	if s.hooks, err = webhooks.NewStore(pool, cfg.Secret); err != nil {
		return services{}, err
	}
	return s, nil
}

// newCommands is the application's commands and the webhook worker they
// nudge (which disables an endpoint through a command in turn).
func newCommands(cfg config.Config, log *slog.Logger, pool *pgxpool.Pool, store *eventstore.Store, repo *accounts.Repository, keys *apikeys.Keys, s services, sender *mail.Sender) (command.Commands, *webhooks.Worker) {
	var commands command.Commands
	hookWorker := webhooks.NewWorker(pool, s.hooks, webhooks.NewDispatcher(pool, store), webhookPolicy(cfg),
		func(ctx context.Context, accountID, id, reason string) error {
			return commands.DisableWebhookEndpoint.Handle(ctx, accountID, id, reason)
		}, log, webhooks.Options{})
	commands = command.New(command.Deps{
		Accounts: repo, Auth: s.auth, Keys: keys, KeyCache: s.keyCache, Sandbox: s.sandboxes, Now: time.Now, Log: log, MailQueued: sender.Nudge,
		VerificationMail: func(to, code string) mail.Message { return verificationMail(cfg.ProductName, to, code) },
		Support:          s.support, SupportMail: supportMail(cfg.SupportEmail),
		SupportReplyMail: supportReplyMail(cfg.ProductName, cfg.SupportEmail, cfg.BaseURL),
		Payments:         s.payments,
		Webhooks:         s.hooks, WebhookPolicy: webhookPolicy(cfg), WebhooksQueued: hookWorker.Nudge,
		WebhookDisabledMail: webhooks.DisabledMail(cfg.ProductName, cfg.BaseURL),
	})
	return commands, hookWorker
}
