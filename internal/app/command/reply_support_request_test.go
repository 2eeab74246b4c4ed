package command

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/supportrequests"
)

func TestReplySupportRequestKeepsTheReplyMailsTheSellerAndAudits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	seller := e.verified("asks@example.com")
	staff := e.register("staff@example.com")
	ctx := context.Background()
	th := e.supportRequest(seller, "Where are my credits")
	reply, err := e.cmd.ReplySupportRequest.Handle(ctx, ReplySupportRequest{RequestID: th.ID, StaffID: staff.AccountID,
		StaffEmail: staff.Email, Message: "They are on their way.", HTTPRequestID: "req-reply"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.support.Get(ctx, th.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != supportrequests.StatusAnswered || len(got.Thread) != 1 || got.Thread[0].ID != reply.ID ||
		got.Thread[0].Message != "They are on their way." {
		t.Fatalf("thread %+v", got)
	}
	if n := e.count(`SELECT count(*) FROM staff_audit WHERE actor_id = $1 AND account_id = $2 AND action = 'support.reply' AND request_id = 'req-reply'`,
		staff.AccountID, seller.AccountID); n != 1 {
		t.Fatalf("%d audit lines", n)
	}
	if _, err := e.sender.DeliverDue(ctx); err != nil {
		t.Fatal(err)
	}
	var toSeller []string
	for _, m := range e.smtp.To("asks@example.com") {
		if strings.Contains(m, "They are on their way.") {
			toSeller = append(toSeller, m)
		}
	}
	if len(toSeller) != 1 {
		t.Fatalf("%d reply mails to the seller", len(toSeller))
	}
}

func TestReplySupportRequestToAnUnknownRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	staff := e.register("staff2@example.com")
	_, err := e.cmd.ReplySupportRequest.Handle(context.Background(), ReplySupportRequest{
		RequestID: "00000000-0000-4000-8000-000000000000", StaffID: staff.AccountID, StaffEmail: staff.Email, Message: "Hi"})
	if !errors.Is(err, supportrequests.ErrNotFound) {
		t.Fatalf("unknown request: %v", err)
	}
	wantCode(t, err, domain.CodeNotFound)
	if n := e.count(`SELECT count(*) FROM staff_audit`) + e.count(`SELECT count(*) FROM support_replies`); n != 0 {
		t.Fatalf("%d rows written for a refused reply", n)
	}
}
