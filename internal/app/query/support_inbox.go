package query

import (
	"context"

	"github.com/a2e-automation/app/internal/staff"
)

// SupportInboxHandler reads the staff support inbox.
type SupportInboxHandler struct{ staff StaffConsole }

// SupportInbox selects a page of the inbox: Status ("" any), after
// Cursor, at most Limit requests.
type SupportInbox struct {
	Status, Cursor string
	Limit          int
}

// Handle is the page q selects.
func (h SupportInboxHandler) Handle(ctx context.Context, q SupportInbox) (staff.SupportInboxPage, error) {
	return h.staff.SupportInbox(ctx, q.Status, q.Cursor, q.Limit)
}

// SupportThreadHandler reads one support request with its replies, for staff.
type SupportThreadHandler struct{ staff StaffConsole }

// Handle is support request id.
func (h SupportThreadHandler) Handle(ctx context.Context, id string) (staff.SupportThread, error) {
	return h.staff.SupportRequest(ctx, id)
}
