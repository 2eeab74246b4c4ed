package command

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
)

func TestSendSupportRequestStoresItAndMailsSupport(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.verified("help@example.com")
	ctx := context.Background()
	th := e.supportRequest(r, "Billing question")
	if th.Status != "open" || th.Email != "help@example.com" || th.Message != "Please help with Billing question" {
		t.Fatalf("stored %+v", th.Request)
	}
	if n := e.count(`SELECT count(*) FROM mail_outbox WHERE recipient = 'support@example.com' AND reply_to = 'help@example.com'`); n != 1 {
		t.Fatalf("%d support mails queued", n)
	}
	if _, err := e.sender.DeliverDue(ctx); err != nil {
		t.Fatal(err)
	}
	got := e.smtp.To("support@example.com")
	if len(got) != 1 || !strings.Contains(got[0], "Billing question") {
		t.Fatalf("mail to support: %q", got)
	}
}

func TestSendSupportRequestRefusesAnUnverifiedAccount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("unverified@example.com")
	err := e.cmd.SendSupportRequest.Handle(context.Background(), SendSupportRequest{AccountID: r.AccountID, Email: r.Email,
		Subject: "Hello", Message: "Anyone there?"})
	if err != ErrSupportUnverified {
		t.Fatalf("unverified: %v, want ErrSupportUnverified", err)
	}
	wantCode(t, err, domain.CodeForbidden)
	if n := e.count(`SELECT count(*) FROM support_requests`); n != 0 || e.supports.Load() != 0 {
		t.Fatalf("%d requests stored, %d mails composed", n, e.supports.Load())
	}
}

func TestSendSupportRequestLimitsAnHour(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.verified("chatty@example.com")
	ctx := context.Background()
	limit := SupportLimits[0]
	for i := range limit.Max {
		e.supportRequest(r, fmt.Sprintf("Question %d", i))
	}
	err := e.cmd.SendSupportRequest.Handle(ctx, SendSupportRequest{AccountID: r.AccountID, Email: r.Email,
		Subject: "One more", Message: "Another one"})
	wantCode(t, err, domain.CodeRateLimited)
	if ra := domain.RetryAfter(err); ra <= 0 || ra > limit.Per {
		t.Fatalf("RetryAfter %s", ra)
	}
	if n := e.count(`SELECT count(*) FROM support_requests`); n != limit.Max {
		t.Fatalf("%d requests stored, want %d", n, limit.Max)
	}
	e.advance(limit.Per + time.Second)
	e.supportRequest(r, "After the hour")
}
