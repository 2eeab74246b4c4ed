package sandbox

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/vero"
)

// VeroCheck is a VeRO check made in test mode: the real list's answer, paid
// with a test credit.
type VeroCheck struct {
	ID, Brand        string
	Protected        bool
	CreditsRemaining int64 // after the spend that made it
}

// VeroCheck takes a test credit for a VeRO check of brand (already cleaned,
// vero.Clean) with the key whose hash is keyHash, in one transaction, as
// Spend does: the key checked, the balance locked, an Idempotency-Key used
// before replays the first check when requestHash is the first's (another
// request under it is eventstore.ErrIdempotencyKeyReused), nothing charged
// then.
func (s *Store) VeroCheck(ctx context.Context, accountID, keyHash, idempotencyKey, requestHash, brand string) (c VeroCheck, replayed bool, err error) {
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		keyID, credits, err := lockBalance(ctx, tx, accountID, keyHash)
		if err != nil {
			return err
		}
		if idempotencyKey != "" {
			var firstHash string
			err := tx.QueryRow(ctx, `SELECT id::text, brand, protected, credits_after, request_hash FROM sandbox_vero_checks
				WHERE account_id = $1 AND idempotency_key = $2`, accountID, idempotencyKey).Scan(&c.ID, &c.Brand, &c.Protected, &c.CreditsRemaining, &firstHash)
			if err == nil && firstHash != requestHash {
				return eventstore.ErrIdempotencyKeyReused
			}
			if err == nil {
				replayed = true
				return nil
			}
			if !errors.Is(err, pgx.ErrNoRows) {
				return err
			}
		}
		if credits <= 0 {
			return ErrNoTestCredits
		}
		protected, err := vero.IsProtected(ctx, tx, brand)
		if err != nil {
			return err
		}
		c = VeroCheck{ID: uuid.NewString(), Brand: brand, Protected: protected, CreditsRemaining: credits - 1}
		if _, err := tx.Exec(ctx, `UPDATE sandbox_balances SET credits = credits - 1 WHERE account_id = $1`, accountID); err != nil {
			return err
		}
		var idem *string
		if idempotencyKey != "" {
			idem = &idempotencyKey
		}
		_, err = tx.Exec(ctx, `INSERT INTO sandbox_vero_checks (id, account_id, key_id, brand, protected, idempotency_key, credits_after, request_hash)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, c.ID, accountID, keyID, brand, protected, idem, c.CreditsRemaining, requestHash)
		return err
	})
	if err != nil && domain.ErrorCode(err) == "" {
		err = fmt.Errorf("sandbox vero check: %w", err)
	}
	return c, replayed, err
}
