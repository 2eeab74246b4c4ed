package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/auth"
)

// CompleteReset sets a new password with a reset token.
type CompleteReset struct {
	Token       string
	NewPassword string
	// Metadata of the command; Handle sets its Actor to the account the
	// token belongs to.
	Metadata eventstore.Metadata
}

// CompleteResetHandler sets a new password with a reset token, once.
type CompleteResetHandler struct {
	accounts *accounts.Repository
	auth     *auth.Store
	now      func() time.Time
}

// Handle finds the token's account, hashes the new password outside any
// transaction, then, in the account's transaction, uses the token up, ends
// every session of the account and records PasswordChanged ("reset"). A
// missing, unknown, used or expired token fails with auth.ErrResetToken.
func (h CompleteResetHandler) Handle(ctx context.Context, cmd CompleteReset) (eventstore.Result, error) {
	id, err := h.auth.ResetTokenAccount(ctx, cmd.Token, h.now())
	if err != nil {
		return eventstore.Result{}, err
	}
	hash, err := h.auth.HashPassword(ctx, cmd.NewPassword)
	if err != nil {
		return eventstore.Result{}, err
	}
	md := cmd.Metadata
	md.Actor = "account:" + id
	return h.accounts.Change(ctx, id, eventstore.UpdateOptions{Metadata: md},
		func(ctx context.Context, w accounts.Work, a *domain.Account, now time.Time) (any, error) {
			if err := w.CompleteReset(ctx, h.auth, id, cmd.Token, hash, now); err != nil {
				return nil, err
			}
			return nil, a.ChangePassword(domain.PasswordChangeReasonReset, now)
		})
}
