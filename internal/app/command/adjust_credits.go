package command

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/staff"
	"github.com/a2e-automation/app/internal/staffaudit"
)

// AdjustmentKeyPrefix starts the stored Idempotency-Key of every staff
// adjustment, apart from the desktop client's and Stripe's keys on the same
// stream; the retention pruner removes them after IDEMPOTENCY_KEY_TTL.
const AdjustmentKeyPrefix = "staff-adjustment:"

// AdjustCredits is a staff credit adjustment: Credits granted (> 0) or
// removed (< 0) from AccountID by staff member StaffID, with a reason.
// IdempotencyKey (stored form, AdjustmentKeyPrefix included) and
// RequestHash make a retry answer the first result and change nothing.
type AdjustCredits struct {
	StaffID        string
	AccountID      string
	Credits        int64
	Reason         string
	IdempotencyKey string
	RequestHash    string
	RequestID      string
	Metadata       eventstore.Metadata
}

// Adjusted is an adjustment's answer.
type Adjusted struct {
	Balance  int64
	Position int64 // the adjustment's event, for a read that must see it
	Replayed bool  // a retry with the same key: nothing was changed again
}

// AdjustCreditsHandler adjusts credits and records the audit line in the
// same transaction.
type AdjustCreditsHandler struct {
	accounts *accounts.Repository
}

// adjustedBody is what is kept with the idempotency key.
type adjustedBody struct {
	Balance int64 `json:"balance"`
}

// Handle refuses a staff member's own account (staff.RefuseOwnAccount),
// then grants or debits in the account's transaction, with the
// CreditsGranted/CreditsDebited event's actor the staff member and an
// audit line (staffaudit.ActionAdjustment) written with it. A debit never
// takes the balance below zero (the domain's insufficient credits).
func (h AdjustCreditsHandler) Handle(ctx context.Context, cmd AdjustCredits) (Adjusted, error) {
	if err := staff.RefuseOwnAccount(cmd.StaffID, cmd.AccountID); err != nil {
		return Adjusted{}, err
	}
	if cmd.Credits == 0 {
		return Adjusted{}, domain.Errorf(domain.CodeInvalid, "Credits must be a whole number other than 0")
	}
	reason, err := domain.StaffReason(cmd.Reason)
	if err != nil {
		return Adjusted{}, err
	}
	res, err := h.accounts.Change(ctx, cmd.AccountID, eventstore.UpdateOptions{
		Metadata: cmd.Metadata, IdempotencyKey: cmd.IdempotencyKey, RequestHash: cmd.RequestHash,
	}, func(ctx context.Context, w accounts.Work, a *domain.Account, now time.Time) (any, error) {
		var err error
		if cmd.Credits > 0 {
			err = a.GrantCredits(domain.CreditsGranted{Amount: cmd.Credits, Source: domain.SourceAdjustment, Reason: reason, Reference: cmd.Metadata.Actor}, now)
		} else {
			err = a.Debit(-cmd.Credits, reason, now)
		}
		if err != nil {
			return nil, err
		}
		if err := w.Audit(ctx, staffaudit.Entry{Actor: cmd.StaffID, AccountID: cmd.AccountID, Action: staffaudit.ActionAdjustment,
			Detail: fmt.Sprintf("%+d credits: %s", cmd.Credits, reason), RequestID: cmd.RequestID}); err != nil {
			return nil, err
		}
		return adjustedBody{Balance: a.Balance(now)}, nil
	})
	if err != nil {
		return Adjusted{}, err
	}
	var body adjustedBody
	if err := json.Unmarshal(res.Result, &body); err != nil {
		return Adjusted{}, fmt.Errorf("adjustment answer: %w", err)
	}
	return Adjusted{Balance: body.Balance, Position: res.LastPosition, Replayed: res.Replayed}, nil
}
