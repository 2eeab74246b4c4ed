package command

import (
	"context"
	"errors"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/supportrequests"
)

// SendSupportRequest sends a seller's support request to the support
// mailbox. Subject and Message are trimmed and within bounds.
type SendSupportRequest struct {
	AccountID, Email string
	Subject, Message string
}

// SupportLimits bound the requests one account sends (issue 25): each is a
// mail to the support mailbox.
var SupportLimits = []supportrequests.Limit{{Max: 5, Per: time.Hour}, {Max: 20, Per: 24 * time.Hour}}

// ErrSupportUnverified refuses a request from an account whose address is
// not verified: replies would go to an address nobody proved.
var ErrSupportUnverified = domain.Errorf(domain.CodeForbidden, "Please verify your email address before contacting support.")

// SendSupportRequestHandler stores a request and queues its mail.
type SendSupportRequestHandler struct {
	accounts *accounts.Repository
	store    *supportrequests.Store
	now      func() time.Time
	compose  func(supportrequests.Request) mail.Message
	queued   func()
}

// Handle stores the request of a verified account within SupportLimits and
// queues its mail in the same transaction; the mail sender delivers it,
// retrying through outages. Over a limit: a domain.CodeRateLimited error
// with its RetryAfter.
func (h SendSupportRequestHandler) Handle(ctx context.Context, cmd SendSupportRequest) error {
	a, err := h.accounts.FromSnapshot(ctx, cmd.AccountID)
	if err != nil {
		return err
	}
	if !a.IsVerified() {
		return ErrSupportUnverified
	}
	_, err = h.store.Create(ctx, cmd.AccountID, cmd.Email, cmd.Subject, cmd.Message, h.now(), SupportLimits, h.compose)
	if tooMany, ok := errors.AsType[*supportrequests.TooManyError](err); ok {
		return domain.RateLimited(tooMany.RetryAfter, "You have sent several support requests recently. Please wait before sending another.")
	}
	if err != nil {
		return err
	}
	h.queued()
	return nil
}
