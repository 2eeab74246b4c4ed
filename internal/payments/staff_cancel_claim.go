package payments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// claimStaffCancel decides, in one short transaction under the account's
// reservation lock, what this console cancellation (action, of
// subscriptionID) does (issue 31, item 6): answer again the same
// cancellation the provider took within reuseReservation whose event has
// not arrived yet (replay); wait for one another attempt is sending
// (inFlight); take over one whose call got no answer, with its key; or
// reserve afresh. Its key is c.req.key.
func (s *Service) claimStaffCancel(ctx context.Context, r StaffCancel, action, subscriptionID string) (staffClaim, error) {
	now := time.Now()
	var c staffClaim
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		c = staffClaim{}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('provider_requests:' || $1, 0))`, r.AccountID); err != nil {
			return fmt.Errorf("lock reservations: %w", err)
		}
		var status string
		err := tx.QueryRow(ctx, `SELECT idempotency_key, status, coalesce(claimed_at > $5, false) FROM provider_requests
			WHERE account_id = $1 AND action = $2 AND target = $3 AND status IN ('reserved', 'done') AND applied_event IS NULL
			  AND created_at > $4
			ORDER BY created_at DESC LIMIT 1`, r.AccountID, action, subscriptionID, now.Add(-reuseReservation), now.Add(-checkoutLease)).
			Scan(&c.req.key, &status, &c.req.live)
		switch {
		case err != nil && !errors.Is(err, pgx.ErrNoRows):
			return err
		case err == nil && c.req.live:
			c.inFlight = true
			return nil
		case err == nil && status == "done":
			c.replay = true
			return nil
		case err == nil: // an unanswered call: ask again with its key
			_, err = tx.Exec(ctx, `UPDATE provider_requests SET claimed_at = $2 WHERE idempotency_key = $1`, c.req.key, now)
			return err
		}
		c.req.key = action + ":" + uuid.NewString()
		_, err = tx.Exec(ctx, `INSERT INTO provider_requests (idempotency_key, account_id, action, target, created_at, claimed_at, actor, reason)
			VALUES ($1, $2, $3, $4, $5, $5, $6, $7)`, c.req.key, r.AccountID, action, subscriptionID, now, r.Actor, r.Reason)
		return err
	})
	if err != nil {
		return staffClaim{}, fmt.Errorf("claim staff cancellation: %w", err)
	}
	return c, nil
}
