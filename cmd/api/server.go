package main

import (
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/app/query"
	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/downloads"
	"github.com/a2e-automation/app/internal/listings"
	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/pages"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/staff"
	"github.com/a2e-automation/app/internal/staffaudit"
	"github.com/a2e-automation/app/internal/startup"
	"github.com/a2e-automation/app/internal/supportrequests"
	"github.com/a2e-automation/app/projections"
)

// Deps are everything the HTTP layer needs.
type Deps struct {
	Config      config.Config
	Log         *slog.Logger
	Accounts    *accounts.Repository
	Commands    command.Commands // the use cases that change an account, each in its own transaction
	Projections *projections.Projector
	Registry    *prometheus.Registry
	Auth        *auth.Store
	APIKeys     *auth.KeyCache    // admits the metered /v1 calls without a query for a key seen before
	Limits      *limits           // rate limits and throttles, in memory or shared in Redis
	Resets      *auth.ResetWorker // mails the password resets that Auth queues
	Keys        *apikeys.Keys
	Mail        *mail.Sender  // delivers the mail outbox; nudged after a mail is queued
	Mailbox     *mail.Mailbox // the development mailbox, listed at /api/dev/mail outside production
	Reader      *projections.Reader
	Usage       *query.Usage // usage per day and the CSV exports (issue 35)
	Support     *supportrequests.Store
	Staff       *staff.Console
	Audit       *staffaudit.Log // the staff audit trail
	Payments    *payments.Service
	Downloads   *downloads.Service // the desktop installer from DOWNLOADS_DIR, its downloads and links
	Pages       *pages.Store       // the public pages from PAGES_DIR
	Listings    *listings.Ledger   // the desktop client's listing requests, read back from the ledger
	Readiness   startup.Readiness  // GET /readyz: the database answers, migrations applied
}

// NewServer returns the product's HTTP handler.
func NewServer(d Deps) (http.Handler, error) {
	r := chi.NewRouter()
	addRoutes(r, d)
	return r, nil
}
