package command

import (
	"context"
	"log/slog"
	"time"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/auth"
)

// Register is a sign-up.
type Register struct {
	Email    string // normalised
	Password string
	// PreviousSession is the session token the request came with, if any:
	// it ends when the new account signs in.
	PreviousSession string
	Metadata        eventstore.Metadata
}

// Registered is a new account, signed in.
type Registered struct {
	accounts.Signup
	SessionToken string
}

// RegisterHandler runs a sign-up.
type RegisterHandler struct {
	accounts *accounts.Repository
	auth     *auth.Store
	keys     *apikeys.Keys
	now      func() time.Time
	sendCode SendVerificationCodeHandler
	log      *slog.Logger
}

// Handle opens an account with its API key (one transaction), signs it in
// and mails the first verification code. A failed mail does not undo the
// sign-up: it is logged, and the seller can ask for another code. A known
// email fails with accounts.ErrEmailTaken.
func (h RegisterHandler) Handle(ctx context.Context, cmd Register) (Registered, error) {
	hash, err := h.auth.HashPassword(ctx, cmd.Password)
	if err != nil {
		return Registered{}, err
	}
	s, err := h.accounts.Register(ctx, h.keys, cmd.Email, hash, cmd.Metadata)
	if err != nil {
		return Registered{}, err
	}
	token, err := h.auth.StartSession(ctx, cmd.PreviousSession, s.AccountID, h.now())
	if err != nil {
		return Registered{}, err
	}
	if err := h.sendCode.Handle(ctx, SendVerificationCode{AccountID: s.AccountID, Email: s.Email}); err != nil {
		h.log.WarnContext(ctx, "signed up without a verification email", "account", s.AccountID, "err", err)
	}
	return Registered{Signup: s, SessionToken: token}, nil
}
