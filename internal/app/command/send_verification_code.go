package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/mail"
)

// SendVerificationCode mails an account a new verification code.
type SendVerificationCode struct {
	AccountID string
	Email     string
}

// SendVerificationCodeHandler replaces an account's code and queues its
// mail.
type SendVerificationCodeHandler struct {
	auth    *auth.Store
	now     func() time.Time
	compose func(to, code string) mail.Message
	queued  func()
}

// Handle replaces the account's code with a new one and queues its mail;
// the mail sender delivers it after commit. A code asked for too soon
// fails with *auth.TooSoonError.
func (h SendVerificationCodeHandler) Handle(ctx context.Context, cmd SendVerificationCode) error {
	err := h.auth.IssueVerificationCode(ctx, cmd.AccountID, h.now(), func(code string) mail.Message {
		return h.compose(cmd.Email, code)
	})
	if err == nil {
		h.queued()
	}
	return err
}
