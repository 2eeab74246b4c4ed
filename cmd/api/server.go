package main

import (
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/a2e-automation/app/internal/app"
	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/downloads"
	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/staffaudit"
	"github.com/a2e-automation/app/internal/startup"
	"github.com/a2e-automation/app/internal/webhooks"
	"github.com/a2e-automation/app/projections"
)

// Deps is what the handlers receive: the application (App: the commands
// that change an account and the reads), and, each in a field of its own,
// what a request needs that is neither. A new read goes in
// internal/app/query, a new change in internal/app/command
// (docs/application-layer.md), not in a field here.
type Deps struct {
	App       app.Application
	Config    config.Config
	Log       *slog.Logger
	Auth      *auth.Store        // sign-in, sessions and the staff second factor
	APIKeys   *auth.KeyCache     // admits the metered /v1 calls without a query for a key seen before
	Limits    *limits            // rate limits and throttles, in memory or shared in Redis
	Audit     *staffaudit.Log    // the audit lines the staff routes write before they answer
	Payments  *payments.Service  // the provider's flows; moving into App.Commands (issue 37 item 1)
	Downloads *downloads.Service // the desktop installer from DOWNLOADS_DIR, its downloads and links
	// The process's own: read-your-writes waits and the staff rebuild, the
	// workers that mail, the metrics registry and GET /readyz.
	Projections *projections.Projector
	Resets      *auth.ResetWorker // mails the password resets that Auth queues
	Mail        *mail.Sender      // delivers the mail outbox; nudged after a mail is queued
	Webhooks    *webhooks.Worker  // dispatches the log to webhook deliveries and sends them
	Registry    *prometheus.Registry
	Readiness   startup.Readiness
}

// NewServer returns the product's HTTP handler.
func NewServer(d Deps) (http.Handler, error) {
	r := chi.NewRouter()
	addRoutes(r, d)
	return withRoutedRequest(d.Config.RequestTimeout, r), nil
}
