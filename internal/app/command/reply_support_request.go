package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/supportrequests"
)

// ReplySupportRequest is a staff member's reply to a seller's support
// request, from the console's inbox. Message is trimmed and within bounds.
type ReplySupportRequest struct {
	RequestID           string
	StaffID, StaffEmail string
	Message             string
}

// ReplySupportRequestHandler keeps the reply in the request's thread and
// mails it to the seller.
type ReplySupportRequestHandler struct {
	store   *supportrequests.Store
	now     func() time.Time
	compose func(supportrequests.Request, supportrequests.Reply) mail.Message
	queued  func()
}

// Handle stores the reply, marks the request answered and queues the mail
// to the seller, in one transaction; the mail sender delivers it after the
// commit, retrying through outages. An unknown request is CodeNotFound.
func (h ReplySupportRequestHandler) Handle(ctx context.Context, cmd ReplySupportRequest) (supportrequests.Reply, error) {
	reply, err := h.store.AddReply(ctx, cmd.RequestID, cmd.StaffID, cmd.StaffEmail, cmd.Message, h.now(), h.compose)
	if err != nil {
		return supportrequests.Reply{}, err
	}
	// audit: staff cmd.StaffID replied to support request cmd.RequestID (account of the request)
	h.queued()
	return reply, nil
}
