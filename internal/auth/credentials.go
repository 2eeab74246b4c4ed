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

// CreateCredentials writes a new account's users row and the lookup row of
// its primary API key through tx; a known email fails with ErrEmailTaken.
func CreateCredentials(ctx context.Context, tx pgx.Tx, accountID, email, passwordHash string, key domain.APIKeyMaterial, now time.Time) error {
	if _, err := tx.Exec(ctx, `INSERT INTO users (account_id, email, password_hash, created_at) VALUES ($1, $2, $3, $4)`,
		accountID, email, passwordHash, now); err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "23505" {
			return ErrEmailTaken
		}
		return fmt.Errorf("insert user: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO api_keys (key_hash, account_id, key_id, created_at, name, mode, prefix, encrypted, is_primary)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, true)`,
		key.Hash, accountID, key.KeyID, now, domain.DefaultKeyName, domain.KeyModeLive, key.Prefix, key.Encrypted); err != nil {
		return fmt.Errorf("insert api key: %w", err)
	}
	return nil
}
