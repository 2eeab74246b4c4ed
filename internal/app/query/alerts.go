package query

import (
	"context"
	"errors"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/projections"
)

// AlertSettingsReader reads an account's balance alert settings from the
// profiles read table (projections.Reader).
type AlertSettingsReader interface {
	AlertSettings(ctx context.Context, accountID string) (domain.AlertSettings, error)
}

// AlertsHandler reads the signed-in seller's balance alert settings
// (GET /api/account/alerts, issue 33).
type AlertsHandler struct {
	profile  ProfileHandler // waits, bounded, for a new account's profile
	settings AlertSettingsReader
}

// Handle returns accountID's alert settings, or ErrProfilePending while the
// projector has not written the account's profile.
func (h AlertsHandler) Handle(ctx context.Context, accountID string) (domain.AlertSettings, error) {
	if _, err := h.profile.Handle(ctx, accountID); err != nil {
		return domain.AlertSettings{}, err
	}
	s, err := h.settings.AlertSettings(ctx, accountID)
	if errors.Is(err, projections.ErrNoProfile) {
		err = ErrProfilePending
	}
	return s, err
}
