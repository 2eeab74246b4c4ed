package command

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/mail"
)

// resetToken asks for a reset of email and returns the token the reset
// worker mails.
func (e *env) resetToken(email string) string {
	e.t.Helper()
	ctx := context.Background()
	var mu sync.Mutex
	var token string
	w := e.auth.NewResetWorker(func(to, tok string) mail.Message {
		mu.Lock()
		token = tok
		mu.Unlock()
		return mail.Message{To: to, Subject: "Reset", Text: tok}
	}, func() {}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := e.auth.RequestReset(ctx, email, time.Now()); err != nil {
		e.t.Fatal(err)
	}
	if _, err := w.HandleAll(ctx); err != nil {
		e.t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if token == "" {
		e.t.Fatalf("no reset token mailed to %s", email)
	}
	return token
}

func TestCompleteResetSetsThePasswordOnceAndEndsSessions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("reset@example.com")
	ctx := context.Background()
	token := e.resetToken("reset@example.com")
	if _, err := e.cmd.CompleteReset.Handle(ctx, CompleteReset{Token: token, NewPassword: "a brand new password"}); err != nil {
		t.Fatal(err)
	}
	if id, _, err := e.auth.Authenticate(ctx, "reset@example.com", "a brand new password"); err != nil || id != r.AccountID {
		t.Fatalf("new password: %q, %v", id, err)
	}
	if _, _, err := e.auth.Authenticate(ctx, "reset@example.com", "correct horse battery"); !errors.Is(err, auth.ErrBadCredentials) {
		t.Fatalf("old password: %v", err)
	}
	if _, err := e.auth.Session(ctx, r.SessionToken, e.now()); !errors.Is(err, auth.ErrNoSession) {
		t.Fatalf("session after reset: %v, want ErrNoSession", err)
	}
	h, err := e.repo.History(ctx, r.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	last, ok := h[len(h)-1].Event.(domain.PasswordChanged)
	if !ok || last.Reason != domain.PasswordChangeReasonReset {
		t.Fatalf("last event %#v", h[len(h)-1].Event)
	}
	// The token is used up.
	_, err = e.cmd.CompleteReset.Handle(ctx, CompleteReset{Token: token, NewPassword: "yet another password"})
	if !errors.Is(err, auth.ErrResetToken) {
		t.Fatalf("second use: %v, want ErrResetToken", err)
	}
	wantCode(t, err, domain.CodeInvalid)
	if n := e.events(r.AccountID)["PasswordChanged"]; n != 1 {
		t.Fatalf("%d PasswordChanged events, want 1", n)
	}
}

func TestCompleteResetRefusesUnknownAndExpiredTokens(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("expired@example.com")
	ctx := context.Background()
	_, err := e.cmd.CompleteReset.Handle(ctx, CompleteReset{Token: "not-a-token", NewPassword: "a brand new password"})
	if !errors.Is(err, auth.ErrResetToken) {
		t.Fatalf("unknown token: %v", err)
	}
	token := e.resetToken("expired@example.com")
	e.advance(auth.ResetTTL + time.Minute)
	_, err = e.cmd.CompleteReset.Handle(ctx, CompleteReset{Token: token, NewPassword: "a brand new password"})
	if !errors.Is(err, auth.ErrResetToken) {
		t.Fatalf("expired token: %v", err)
	}
	if n := e.events(r.AccountID)["PasswordChanged"]; n != 0 {
		t.Fatalf("%d PasswordChanged events, want 0", n)
	}
}
