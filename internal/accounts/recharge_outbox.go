package accounts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// RechargeRequest is a row of the recharge outbox: a recharge the decider
// queued (recharge.go) that the worker has still to charge.
type RechargeRequest struct {
	AccountID, RechargeID string
	Credits, AmountCents  int64
	Attempts              int
}

// ClaimRecharge takes the oldest pending recharge nobody holds, for lease:
// a short transaction, committed before the provider is called, so no lock
// is held during the call; a worker that dies lets the lease run out and
// another retries with the same idempotency key. ok false: none pending.
func (r *Repository) ClaimRecharge(ctx context.Context, lease time.Duration) (req RechargeRequest, ok bool, err error) {
	now := r.Now()
	err = r.store.Pool().QueryRow(ctx, `UPDATE recharge_requests SET claimed_until = $1, attempts = attempts + 1
		WHERE (account_id, recharge_id) = (
			SELECT account_id, recharge_id FROM recharge_requests
			WHERE status = 'pending' AND (claimed_until IS NULL OR claimed_until < $2)
			ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING account_id::text, recharge_id, credits, amount_cents, attempts`, now.Add(lease), now).
		Scan(&req.AccountID, &req.RechargeID, &req.Credits, &req.AmountCents, &req.Attempts)
	if errors.Is(err, pgx.ErrNoRows) {
		return RechargeRequest{}, false, nil
	}
	if err != nil {
		return RechargeRequest{}, false, fmt.Errorf("claim recharge: %w", err)
	}
	return req, true, nil
}

// RechargeCharged ends the outbox row of req: the provider answered (the
// payment's outcome reaches the ledger as a payment's does).
func (r *Repository) RechargeCharged(ctx context.Context, req RechargeRequest, paymentIntentID string) error {
	var pi *string
	if paymentIntentID != "" {
		pi = &paymentIntentID
	}
	_, err := r.store.Pool().Exec(ctx, `UPDATE recharge_requests SET status = 'charged', payment_intent_id = $3, settled_at = $4, claimed_until = NULL
		WHERE account_id = $1 AND recharge_id = $2`, req.AccountID, req.RechargeID, pi, r.Now())
	if err != nil {
		return fmt.Errorf("settle recharge %s: %w", req.RechargeID, err)
	}
	return nil
}

// RechargeRetry gives req back for a later attempt after the provider did
// not answer (err), at retryAt.
func (r *Repository) RechargeRetry(ctx context.Context, req RechargeRequest, retryAt time.Time, cause error) error {
	_, err := r.store.Pool().Exec(ctx, `UPDATE recharge_requests SET claimed_until = $3, last_error = $4
		WHERE account_id = $1 AND recharge_id = $2`, req.AccountID, req.RechargeID, retryAt, cause.Error())
	if err != nil {
		return fmt.Errorf("release recharge %s: %w", req.RechargeID, err)
	}
	return nil
}
