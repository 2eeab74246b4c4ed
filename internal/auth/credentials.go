package auth

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/a2e-automation/app/domain"
)

// ErrEmailTaken is the answer to a registration with a known email.
var ErrEmailTaken = domain.Errorf(domain.CodeConflict, "An account with this email already exists")

// This package owns the users and api_keys tables. Sign-up and key rotation
// write them inside the account command's own transaction (tx), so the
// credentials and the events exist together or not at all.

// CreateCredentials writes a new account's users row and its API-key lookup
// row through tx; a known email fails with ErrEmailTaken.
func CreateCredentials(ctx context.Context, tx pgx.Tx, accountID, email, passwordHash, keyHash, keyID string, now time.Time) error {
	if _, err := tx.Exec(ctx, `INSERT INTO users (account_id, email, password_hash, created_at) VALUES ($1, $2, $3, $4)`,
		accountID, email, passwordHash, now); err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "23505" {
			return ErrEmailTaken
		}
		return fmt.Errorf("insert user: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO api_keys (key_hash, account_id, key_id, created_at) VALUES ($1, $2, $3, $4)`,
		keyHash, accountID, keyID, now); err != nil {
		return fmt.Errorf("insert api key: %w", err)
	}
	return nil
}

// ReplaceAPIKey makes keyHash the account's one API key through tx: the old
// key stops working when tx commits.
func ReplaceAPIKey(ctx context.Context, tx pgx.Tx, accountID, keyHash, keyID string, now time.Time) error {
	if _, err := tx.Exec(ctx, `UPDATE api_keys SET key_hash = $2, key_id = $3, created_at = $4 WHERE account_id = $1`,
		accountID, keyHash, keyID, now); err != nil {
		return fmt.Errorf("replace api key: %w", err)
	}
	return nil
}
