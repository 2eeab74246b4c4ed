package projections

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
)

// AlertSettings returns accountID's alert settings as the profiles read
// table holds them (issue 33), or ErrNoProfile.
func (r *Reader) AlertSettings(ctx context.Context, accountID string) (domain.AlertSettings, error) {
	var (
		s    domain.AlertSettings
		days *int32
	)
	err := r.db(ctx).QueryRow(ctx, `SELECT low_balance_credits, expiring_reminder_days FROM profiles WHERE account_id = $1`,
		accountID).Scan(&s.LowBalanceCredits, &days)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.AlertSettings{}, ErrNoProfile
	}
	if err != nil {
		return domain.AlertSettings{}, fmt.Errorf("load alert settings: %w", err)
	}
	if days != nil {
		d := int(*days)
		s.ExpiringReminderDays = &d
	}
	return s, nil
}
