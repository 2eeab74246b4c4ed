package payments

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/internal/accounts"
)

// Attribution is the staff members and reasons of the console requests an
// event applies: its metadata's Actor and Reason, and the reservations it
// marks applied (once each, see AccountChange).
type Attribution struct {
	keys          []string
	Actor, Reason string
}

// StaffRefunds finds the console refunds of accountID's payment paymentID
// that a new refunded total of total covers, beyond refundedBefore, what
// the ledger shows refunded: those asked, in order, whose amounts fit.
// nil when there is none.
func (s *Service) StaffRefunds(ctx context.Context, accountID, paymentID string, refundedBefore, total int64) (*Attribution, error) {
	return s.staffAttribution(ctx, accountID, actionStaffRefund, paymentID, refundedBefore, total)
}

// StaffCancellation finds the latest pending console cancellation of
// accountID's subscription subscriptionID: at its period end, or now
// (immediately). nil when there is none.
func (s *Service) StaffCancellation(ctx context.Context, accountID, subscriptionID string, immediately bool) (*Attribution, error) {
	action := actionStaffCancel
	if immediately {
		action = actionStaffCancelNow
	}
	return s.staffAttribution(ctx, accountID, action, subscriptionID, 0, -1)
}

// staffAttribution finds the pending console requests of action about
// target whose amounts the event's new refunded total covers (refunds:
// refundedBefore and total), or the latest one (cancellations: total < 0).
// nil when there is none.
func (s *Service) staffAttribution(ctx context.Context, accountID, action, target string, refundedBefore, total int64) (*Attribution, error) {
	rows, err := s.pool.Query(ctx, `SELECT idempotency_key, coalesce(actor, ''), coalesce(reason, ''), coalesce(amount_cents, 0)
		FROM provider_requests WHERE account_id = $1 AND action = $2 AND target = $3 AND status IN ('reserved', 'done')
		  AND applied_event IS NULL ORDER BY created_at`, accountID, action, target)
	if err != nil {
		return nil, fmt.Errorf("find staff requests: %w", err)
	}
	type pending struct {
		key, actor, reason string
		amount             int64
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (pending, error) {
		var p pending
		return p, r.Scan(&p.key, &p.actor, &p.reason, &p.amount)
	})
	if err != nil {
		return nil, fmt.Errorf("find staff requests: %w", err)
	}
	if total < 0 && len(list) > 0 {
		list = list[len(list)-1:]
	}
	var at Attribution
	covered := refundedBefore
	for _, p := range list {
		if total >= 0 {
			if covered+p.amount > total {
				continue
			}
			covered += p.amount
		}
		at.keys = append(at.keys, p.key)
		at.Actor, at.Reason = joinText(at.Actor, p.actor, ", "), joinText(at.Reason, p.reason, "; ")
	}
	if len(at.keys) == 0 {
		return nil, nil
	}
	return &at, nil
}

func joinText(have, more, sep string) string {
	if have == "" || have == more {
		return more
	}
	return have + sep + more
}

// attributionRow marks the attributed requests applied by event eventID,
// in the event's transaction (accounts.Row).
type attributionRow struct {
	at      *Attribution
	eventID string
}

// row is at's mark for eventID; nil when nothing is attributed.
func (at *Attribution) row(eventID string) accounts.Row {
	if at == nil {
		return nil
	}
	return attributionRow{at: at, eventID: eventID}
}

func (r attributionRow) SaveIn(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, `UPDATE provider_requests SET applied_event = $2 WHERE idempotency_key = ANY($1) AND applied_event IS NULL`,
		r.at.keys, r.eventID); err != nil {
		return fmt.Errorf("attribute staff requests: %w", err)
	}
	return nil
}
