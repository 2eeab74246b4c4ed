package main

import (
	"context"
	"errors"
	"net/http"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/app/command"
)

// alertsBody is GET and PUT /api/account/alerts (issue 33): the balance
// alert settings, null turning one off. A field left out of a PUT is null.
// Integers only: 1.5 or "5" is refused by decode with the field's name.
type alertsBody struct {
	LowBalanceCredits    *int64 `json:"lowBalanceCredits"`
	ExpiringReminderDays *int   `json:"expiringReminderDays"`
}

func (b alertsBody) settings() domain.AlertSettings {
	return domain.AlertSettings{LowBalanceCredits: b.LowBalanceCredits, ExpiringReminderDays: b.ExpiringReminderDays}
}

// Valid implements validator: the domain's bounds (0 to 10,000,000 credits,
// 1 to 30 days).
func (b alertsBody) Valid(context.Context) map[string]string {
	return domain.CheckAlertSettings(b.settings())
}

// handleGetAlerts answers the signed-in account's alert settings
// (query.AlertsHandler: the profiles read table).
func handleGetAlerts(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s, err := d.App.Queries.Alerts.Handle(r.Context(), currentSession(r.Context()).AccountID)
		if err = profilePending(w, err); err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, alertsBody{LowBalanceCredits: s.LowBalanceCredits, ExpiringReminderDays: s.ExpiringReminderDays})
	}
}

// handlePutAlerts saves the signed-in account's alert settings (an event in
// its stream) and answers them once the read tables have them.
func handlePutAlerts(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := currentSession(r.Context()).AccountID
		body, err := decode[alertsBody](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		res, err := d.App.Commands.SetAlerts.Handle(r.Context(), command.SetAlerts{AccountID: id, Settings: body.settings(),
			Metadata: metadata(r, "account:"+id)})
		if errors.Is(err, domain.ErrAlertsNeedVerifiedEmail) {
			// The problem is with every alert the seller tried to turn on.
			fields := map[string]string{}
			if body.LowBalanceCredits != nil {
				fields["lowBalanceCredits"] = domain.ErrorMessage(err)
			}
			if body.ExpiringReminderDays != nil {
				fields["expiringReminderDays"] = domain.ErrorMessage(err)
			}
			err = &httpError{Status: http.StatusBadRequest, Message: domain.ErrorMessage(err), Fields: fields}
		}
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		awaitProjections(d, r, res.LastPosition)
		encode(w, http.StatusOK, body)
	}
}
