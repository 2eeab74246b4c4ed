package query

import (
	"context"

	"github.com/a2e-automation/app/internal/staff"
)

// StaffAccountHandler reads one account for its staff page.
type StaffAccountHandler struct{ staff StaffConsole }

// Handle is account id as the staff console shows it.
func (h StaffAccountHandler) Handle(ctx context.Context, id string) (staff.AccountView, error) {
	return h.staff.Account(ctx, id)
}
