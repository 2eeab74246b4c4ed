package command

import (
	"context"
	"errors"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/auth"
)

func TestVerifyEmailWithTheMailedCode(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("verify@example.com")
	ctx := context.Background()
	if _, err := e.cmd.VerifyEmail.Handle(ctx, VerifyEmail{AccountID: r.AccountID, Code: e.code("verify@example.com")}); err != nil {
		t.Fatal(err)
	}
	if !e.account(r.AccountID).IsVerified() || e.events(r.AccountID)["EmailVerified"] != 1 {
		t.Fatalf("not verified: events %v", e.events(r.AccountID))
	}
	// The code is used up; a verified account gets the domain's conflict.
	_, err := e.cmd.VerifyEmail.Handle(ctx, VerifyEmail{AccountID: r.AccountID, Code: e.code("verify@example.com")})
	wantCode(t, err, domain.CodeConflict)
	if n := e.events(r.AccountID)["EmailVerified"]; n != 1 {
		t.Fatalf("%d EmailVerified events, want 1", n)
	}
}

func TestVerifyEmailCountsWrongCodesAndStopsAfterTheLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("guess@example.com")
	ctx := context.Background()
	right := e.code("guess@example.com")
	wrong := "000000"
	if right == wrong {
		wrong = "111111"
	}
	for i := range auth.MaxCodeAttempts {
		_, err := e.cmd.VerifyEmail.Handle(ctx, VerifyEmail{AccountID: r.AccountID, Code: wrong})
		if !errors.Is(err, auth.ErrCodeInvalid) {
			t.Fatalf("wrong try %d: %v, want ErrCodeInvalid", i+1, err)
		}
	}
	// Every try was committed, so the right code now comes too late.
	_, err := e.cmd.VerifyEmail.Handle(ctx, VerifyEmail{AccountID: r.AccountID, Code: right})
	if !errors.Is(err, auth.ErrCodeAttempts) {
		t.Fatalf("right code after %d wrong: %v, want ErrCodeAttempts", auth.MaxCodeAttempts, err)
	}
	wantCode(t, err, domain.CodeInvalid)
	if e.account(r.AccountID).IsVerified() {
		t.Fatal("verified after too many tries")
	}
}

func TestVerifyEmailRefusesAnExpiredCode(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("late@example.com")
	e.advance(auth.CodeTTL)
	_, err := e.cmd.VerifyEmail.Handle(context.Background(), VerifyEmail{AccountID: r.AccountID, Code: e.code("late@example.com")})
	if !errors.Is(err, auth.ErrCodeExpired) {
		t.Fatalf("expired code: %v, want ErrCodeExpired", err)
	}
	if e.events(r.AccountID)["EmailVerified"] != 0 {
		t.Fatal("an expired code verified the address")
	}
}
