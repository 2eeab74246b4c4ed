package command

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/auth"
)

func TestRegisterOpensASignedInAccountWithAKeyAndMailsACode(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	r, err := e.cmd.Register.Handle(ctx, Register{Email: "new@example.com", Password: "correct horse battery"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Email != "new@example.com" || r.SessionToken == "" || !apikeys.LooksValid(r.APIKey) {
		t.Fatalf("answer %+v", r)
	}
	if ev := e.events(r.AccountID); ev["AccountRegistered"] != 1 || ev["EmailVerified"] != 0 {
		t.Fatalf("events %v", ev)
	}
	if id, err := e.auth.AccountForAPIKey(ctx, apikeys.Hash(r.APIKey)); err != nil || id != r.AccountID {
		t.Fatalf("API key resolves to %q, %v", id, err)
	}
	if id, _, err := e.auth.Authenticate(ctx, "new@example.com", "correct horse battery"); err != nil || id != r.AccountID {
		t.Fatalf("password signs in as %q, %v", id, err)
	}
	if s, err := e.auth.Session(ctx, r.SessionToken, e.now()); err != nil || s.AccountID != r.AccountID {
		t.Fatalf("session %+v, %v", s, err)
	}
	// The verification code is queued in the outbox and goes out through
	// the SMTP server.
	code := e.code("new@example.com")
	if len(code) != 6 || e.nudges.Load() != 1 {
		t.Fatalf("code %q, %d nudges", code, e.nudges.Load())
	}
	if n, err := e.sender.DeliverDue(ctx); err != nil || n != 1 {
		t.Fatalf("delivered %d, %v", n, err)
	}
	got := e.smtp.To("new@example.com")
	if len(got) != 1 || !strings.Contains(got[0], code) {
		t.Fatalf("mail to new@example.com: %q", got)
	}
}

func TestRegisterEndsThePreviousSession(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	first := e.register("first@example.com")
	second, err := e.cmd.Register.Handle(ctx, Register{Email: "second@example.com", Password: "correct horse battery",
		PreviousSession: first.SessionToken})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.auth.Session(ctx, first.SessionToken, e.now()); !errors.Is(err, auth.ErrNoSession) {
		t.Fatalf("the previous session: %v, want ErrNoSession", err)
	}
	if s, err := e.auth.Session(ctx, second.SessionToken, e.now()); err != nil || s.AccountID != second.AccountID {
		t.Fatalf("new session %+v, %v", s, err)
	}
}

func TestRegisterRefusesAKnownEmail(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.register("taken@example.com")
	_, err := e.cmd.Register.Handle(context.Background(), Register{Email: "taken@example.com", Password: "another password 1"})
	if !errors.Is(err, auth.ErrEmailTaken) {
		t.Fatalf("second sign-up: %v, want ErrEmailTaken", err)
	}
	wantCode(t, err, domain.CodeConflict)
	if n := e.count(`SELECT count(*) FROM users WHERE lower(email) = 'taken@example.com'`); n != 1 {
		t.Fatalf("%d users with the address", n)
	}
	if n := e.count(`SELECT count(*) FROM events WHERE event_type = 'AccountRegistered'`); n != 1 {
		t.Fatalf("%d AccountRegistered events, want 1", n)
	}
}
