package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/internal/supportrequests"
)

// SetSupportRequestStatus is a staff member opening, marking answered or
// closing a support request.
type SetSupportRequestStatus struct {
	RequestID, StaffID string
	Status             string
}

// SetSupportRequestStatusHandler changes a request's status.
type SetSupportRequestStatusHandler struct {
	store *supportrequests.Store
	now   func() time.Time
}

// Handle sets the status: an unknown status is CodeInvalid, an unknown
// request CodeNotFound.
func (h SetSupportRequestStatusHandler) Handle(ctx context.Context, cmd SetSupportRequestStatus) error {
	if err := h.store.SetStatus(ctx, cmd.RequestID, cmd.Status, h.now()); err != nil {
		return err
	}
	// audit: staff cmd.StaffID set support request cmd.RequestID to cmd.Status
	return nil
}
