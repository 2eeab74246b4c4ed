package query

import (
	"context"

	"github.com/a2e-automation/app/internal/mail"
)

// MailboxReader lists the mail sent to an address (mail.Mailbox, outside
// production).
type MailboxReader interface {
	List(ctx context.Context, to string, limit int) ([]mail.Captured, error)
}

// DevMailHandler reads the development mailbox (GET /api/dev/mail).
type DevMailHandler struct{ mailbox MailboxReader }

// Handle is the latest mail to to, at most limit.
func (h DevMailHandler) Handle(ctx context.Context, to string, limit int) ([]mail.Captured, error) {
	return h.mailbox.List(ctx, to, limit)
}
