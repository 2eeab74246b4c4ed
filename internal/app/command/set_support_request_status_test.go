package command

import (
	"context"
	"errors"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/supportrequests"
)

func TestSetSupportRequestStatus(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	seller := e.verified("status@example.com")
	staff := e.register("staff3@example.com")
	ctx := context.Background()
	th := e.supportRequest(seller, "Close me")
	set := func(status string) error {
		return e.cmd.SetSupportRequestStatus.Handle(ctx, SetSupportRequestStatus{RequestID: th.ID, StaffID: staff.AccountID,
			Status: status, HTTPRequestID: "req-" + status})
	}
	if err := set(supportrequests.StatusClosed); err != nil {
		t.Fatal(err)
	}
	if got, err := e.support.Get(ctx, th.ID); err != nil || got.Status != supportrequests.StatusClosed {
		t.Fatalf("status %q, %v", got.Status, err)
	}
	if n := e.count(`SELECT count(*) FROM staff_audit WHERE actor_id = $1 AND account_id = $2 AND action = 'support.status' AND request_id = 'req-closed'`,
		staff.AccountID, seller.AccountID); n != 1 {
		t.Fatalf("%d audit lines", n)
	}

	wantCode(t, set("pending"), domain.CodeInvalid)
	if got, _ := e.support.Get(ctx, th.ID); got.Status != supportrequests.StatusClosed {
		t.Fatalf("a refused status changed it to %q", got.Status)
	}
	err := e.cmd.SetSupportRequestStatus.Handle(ctx, SetSupportRequestStatus{RequestID: "00000000-0000-4000-8000-000000000000",
		StaffID: staff.AccountID, Status: supportrequests.StatusOpen})
	if !errors.Is(err, supportrequests.ErrNotFound) {
		t.Fatalf("unknown request: %v", err)
	}
	if n := e.count(`SELECT count(*) FROM staff_audit`); n != 1 {
		t.Fatalf("%d audit lines after refusals, want 1", n)
	}
}
