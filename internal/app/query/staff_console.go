package query

import (
	"context"
	"time"

	"github.com/a2e-automation/app/internal/staff"
)

// StaffConsole is what the staff console's reads read (staff.Console and
// its History).
type StaffConsole interface {
	Search(ctx context.Context, q string) ([]staff.AccountSummary, error)
	Account(ctx context.Context, id string) (staff.AccountView, error)
	BalanceAt(ctx context.Context, id string, asOf time.Time) (staff.BalanceReport, error)
	Compare(ctx context.Context, id string) (staff.Comparison, error)
	HistoryPage(ctx context.Context, id string, asOf *time.Time, cursor string, limit int) (staff.Page, error)
	SupportInbox(ctx context.Context, status, cursor string, limit int) (staff.SupportInboxPage, error)
	SupportRequest(ctx context.Context, id string) (staff.SupportThread, error)
}

// StaffConsoleOf adapts a staff.Console to StaffConsole.
func StaffConsoleOf(c *staff.Console) StaffConsole { return consoleReads{c} }

type consoleReads struct{ *staff.Console }

func (c consoleReads) HistoryPage(ctx context.Context, id string, asOf *time.Time, cursor string, limit int) (staff.Page, error) {
	return c.History.Page(ctx, id, asOf, cursor, limit)
}
