package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
)

// SetAlerts is a seller's balance alert settings (issue 33, PUT
// /api/account/alerts): both thresholds, nil turning one off.
type SetAlerts struct {
	AccountID string
	Settings  domain.AlertSettings
	Metadata  eventstore.Metadata
}

// SetAlertsHandler records the settings in the account's stream.
type SetAlertsHandler struct {
	accounts *accounts.Repository
}

// Handle records AlertSettingsChanged (domain.Account.SetAlerts: a verified
// account, values in bounds). The same decision reviews the alerts with the
// new settings, so a threshold above the balance alerts at once, in this
// transaction (accounts.Repository's decider).
func (h SetAlertsHandler) Handle(ctx context.Context, cmd SetAlerts) (eventstore.Result, error) {
	return h.accounts.Change(ctx, cmd.AccountID, eventstore.UpdateOptions{Metadata: cmd.Metadata},
		func(_ context.Context, _ accounts.Work, a *domain.Account, now time.Time) (any, error) {
			return nil, a.SetAlerts(cmd.Settings, now)
		})
}
