package auth

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
)

// ResetTTL is how long a password reset link works.
const ResetTTL = time.Hour

// ErrResetToken is returned for a reset token that is unknown, used or
// expired.
var ErrResetToken = domain.Errorf(domain.CodeInvalid, "Invalid or missing reset token. Please request a new password reset link.")

// storeResetToken stores token as accountID's one live reset token,
// replacing earlier ones, through tx.
func storeResetToken(ctx context.Context, tx pgx.Tx, accountID, token string, now time.Time) error {
	if _, err := tx.Exec(ctx, `DELETE FROM password_reset_tokens WHERE account_id = $1`, accountID); err != nil {
		return fmt.Errorf("delete reset tokens: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO password_reset_tokens (token_hash, account_id, expires_at, created_at) VALUES ($1, $2, $3, $4)`,
		HashToken(token), accountID, now.Add(ResetTTL), now); err != nil {
		return fmt.Errorf("store reset token: %w", err)
	}
	return nil
}

// ResetTokenAccount returns the account of a live reset token, or
// ErrResetToken.
func (s *Store) ResetTokenAccount(ctx context.Context, token string, now time.Time) (string, error) {
	var id string
	err := s.pool.QueryRow(ctx, `SELECT account_id::text FROM password_reset_tokens
		WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`, HashToken(token), now).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", ErrResetToken
	}
	if err != nil {
		return "", fmt.Errorf("look up reset token: %w", err)
	}
	return id, nil
}

// CompleteReset, through q, uses up accountID's live reset token (once
// only: a second use fails with ErrResetToken), stores passwordHash as the
// account's password and ends every session of the account.
func (s *Store) CompleteReset(ctx context.Context, q Execer, accountID, token, passwordHash string, now time.Time) error {
	tag, err := q.Exec(ctx, `UPDATE password_reset_tokens SET used_at = $3
		WHERE token_hash = $1 AND account_id = $2 AND used_at IS NULL AND expires_at > $3`, HashToken(token), accountID, now)
	if err != nil {
		return fmt.Errorf("use reset token: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrResetToken
	}
	if _, err := q.Exec(ctx, `UPDATE users SET password_hash = $2 WHERE account_id = $1`, accountID, passwordHash); err != nil {
		return fmt.Errorf("store password: %w", err)
	}
	return s.DeleteSessions(ctx, q, accountID, "")
}
