package query

import (
	"context"
	"time"

	"github.com/a2e-automation/app/internal/staff"
)

// StaffHistoryHandler reads an account's history for the staff console.
type StaffHistoryHandler struct{ staff StaffConsole }

// StaffHistory selects a page of history: up to AsOf (nil: now), after
// Cursor, at most Limit lines.
type StaffHistory struct {
	AccountID string
	AsOf      *time.Time
	Cursor    string
	Limit     int
}

// Handle is the page q selects.
func (h StaffHistoryHandler) Handle(ctx context.Context, q StaffHistory) (staff.Page, error) {
	return h.staff.HistoryPage(ctx, q.AccountID, q.AsOf, q.Cursor, q.Limit)
}
