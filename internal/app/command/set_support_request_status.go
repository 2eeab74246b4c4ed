package command

import (
	"context"
	"fmt"
	"time"

	"github.com/a2e-automation/app/internal/staffaudit"
	"github.com/a2e-automation/app/internal/supportrequests"
)

// SetSupportRequestStatus is a staff member opening, marking answered or
// closing a support request.
type SetSupportRequestStatus struct {
	RequestID, StaffID string
	Status             string
	HTTPRequestID      string // for the audit line
}

// SetSupportRequestStatusHandler changes a request's status.
type SetSupportRequestStatusHandler struct {
	store *supportrequests.Store
	now   func() time.Time
}

// Handle sets the status and records the audit line
// (staffaudit.ActionSupportStatus, on the seller's account) in one
// transaction: an unknown status is CodeInvalid, an unknown request
// CodeNotFound.
func (h SetSupportRequestStatusHandler) Handle(ctx context.Context, cmd SetSupportRequestStatus) error {
	return h.store.SetStatus(ctx, cmd.RequestID, cmd.Status, h.now(),
		func(r supportrequests.Request) staffaudit.Entry {
			return staffaudit.Entry{Actor: cmd.StaffID, AccountID: r.AccountID,
				Action: staffaudit.ActionSupportStatus, Detail: fmt.Sprintf("request %s: %s", r.ID, r.Status),
				RequestID: cmd.HTTPRequestID}
		})
}
