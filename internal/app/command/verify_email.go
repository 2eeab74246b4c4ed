package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/auth"
)

// VerifyEmail is a signed-in seller's verification code.
type VerifyEmail struct {
	AccountID string
	Code      string
	Metadata  eventstore.Metadata
}

// VerifyEmailHandler checks the code and records EmailVerified.
type VerifyEmailHandler struct {
	accounts *accounts.Repository
	auth     *auth.Store
}

// Handle checks the code and records EmailVerified in the account's
// transaction. A refused code commits only its counted try (or the try
// would not count) and then fails with auth.ErrCodeInvalid,
// auth.ErrCodeExpired or auth.ErrCodeAttempts; an account verified already
// gets the domain's conflict.
func (h VerifyEmailHandler) Handle(ctx context.Context, cmd VerifyEmail) (eventstore.Result, error) {
	var refused error // set by the last attempt; the transaction commits without an event
	res, err := h.accounts.Change(ctx, cmd.AccountID, eventstore.UpdateOptions{Metadata: cmd.Metadata},
		func(ctx context.Context, w accounts.Work, a *domain.Account, now time.Time) (any, error) {
			if a.IsVerified() {
				return nil, a.VerifyEmail(now) // the domain's conflict: already verified
			}
			if refused = w.UseVerificationCode(ctx, h.auth, cmd.AccountID, cmd.Code, now); refused != nil {
				return nil, nil
			}
			return nil, a.VerifyEmail(now)
		})
	if err != nil {
		return eventstore.Result{}, err
	}
	if refused != nil {
		return eventstore.Result{}, refused
	}
	return res, nil
}
