package command

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/auth"
)

func TestSendVerificationCodeReplacesTheCodeAndRefusesTooSoon(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("resend@example.com") // mails the first code
	ctx := context.Background()
	first := e.code("resend@example.com")
	send := SendVerificationCode{AccountID: r.AccountID, Email: r.Email}

	err := e.cmd.SendVerificationCode.Handle(ctx, send)
	var tooSoon *auth.TooSoonError
	if !errors.As(err, &tooSoon) || tooSoon.RetryAfter <= 0 || tooSoon.RetryAfter > auth.ResendInterval {
		t.Fatalf("second code at once: %v, want TooSoonError within %s", err, auth.ResendInterval)
	}
	wantCode(t, err, domain.CodeRateLimited)
	if n := e.count(`SELECT count(*) FROM mail_outbox WHERE recipient = $1`, r.Email); n != 1 {
		t.Fatalf("%d mails queued after a refused resend, want 1", n)
	}

	e.advance(auth.ResendInterval + time.Second)
	nudges := e.nudges.Load()
	if err := e.cmd.SendVerificationCode.Handle(ctx, send); err != nil {
		t.Fatal(err)
	}
	if n := e.count(`SELECT count(*) FROM mail_outbox WHERE recipient = $1`, r.Email); n != 2 || e.nudges.Load() != nudges+1 {
		t.Fatalf("%d mails queued, %d nudges", n, e.nudges.Load()-nudges)
	}
	second := e.code("resend@example.com")
	// Only the newest code verifies.
	if first != second {
		_, err := e.cmd.VerifyEmail.Handle(ctx, VerifyEmail{AccountID: r.AccountID, Code: first})
		if !errors.Is(err, auth.ErrCodeInvalid) {
			t.Fatalf("the replaced code: %v, want ErrCodeInvalid", err)
		}
	}
	if _, err := e.cmd.VerifyEmail.Handle(ctx, VerifyEmail{AccountID: r.AccountID, Code: second}); err != nil {
		t.Fatalf("the new code: %v", err)
	}
}
