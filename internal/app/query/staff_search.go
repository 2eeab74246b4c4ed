package query

import (
	"context"

	"github.com/a2e-automation/app/internal/staff"
)

// StaffSearchHandler finds accounts for the staff console.
type StaffSearchHandler struct{ staff StaffConsole }

// Handle is the accounts q matches (an email, part of one, or an id).
func (h StaffSearchHandler) Handle(ctx context.Context, q string) ([]staff.AccountSummary, error) {
	return h.staff.Search(ctx, q)
}
