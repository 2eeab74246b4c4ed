package query

import (
	"context"
	"time"

	"github.com/a2e-automation/app/internal/staff"
)

// StaffBalanceHandler reads an account's balance at a time, replayed from
// the ledger.
type StaffBalanceHandler struct {
	staff StaffConsole
	now   func() time.Time
}

// Handle is id's balance at asOf (nil: now).
func (h StaffBalanceHandler) Handle(ctx context.Context, id string, asOf *time.Time) (staff.BalanceReport, error) {
	at := h.now()
	if asOf != nil {
		at = *asOf
	}
	return h.staff.BalanceAt(ctx, id, at)
}
