package auth

// The api_keys table: every API key that works, looked up by its hash, with
// what the API Keys page lists. Its rows change only with the key events
// of the account's stream, in their transaction (ApplyKeyEvents).

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
)

// AccountForAPIKey returns the account whose working API key has hash
// keyHash, or ErrUnknownAPIKey: a key revoked, expired, or past its
// rotation's grace is no account's, even before the sweeper deletes it.
func (s *Store) AccountForAPIKey(ctx context.Context, keyHash string) (string, error) {
	var id string
	err := s.pool.QueryRow(ctx, `SELECT account_id::text FROM api_keys WHERE key_hash = $1
		AND (expires_at IS NULL OR expires_at > now()) AND (retires_at IS NULL OR retires_at > now())`, keyHash).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", ErrUnknownAPIKey
	}
	if err != nil {
		return "", fmt.Errorf("look up api key: %w", err)
	}
	return id, nil
}

// ErrUnknownAPIKey is returned for a key that is not any account's working key.
var ErrUnknownAPIKey = errors.New("unknown API key")

// ApplyKeyEvents writes what events (an account command's changes) do to
// the account's keys through tx, the command's transaction: a key created
// or rotated in gets its row, a key revoked, expired or rotated out
// without a grace loses it, one rotated out with a grace keeps it until
// retires_at. Other events are ignored.
func ApplyKeyEvents(ctx context.Context, tx pgx.Tx, accountID string, events []domain.Event, now time.Time) error {
	for _, ev := range events {
		var err error
		switch e := ev.(type) {
		case domain.APIKeyCreated:
			_, err = tx.Exec(ctx, `INSERT INTO api_keys (key_hash, account_id, key_id, created_at, name, mode, prefix, encrypted, expires_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
				e.Hash, accountID, e.KeyID, now, e.Name, e.Mode, e.Prefix, e.Encrypted, e.ExpiresAt)
		case domain.APIKeyRotated:
			err = rotateKeyRow(ctx, tx, accountID, e, now)
		case domain.APIKeyRevoked:
			_, err = tx.Exec(ctx, `DELETE FROM api_keys WHERE account_id = $1 AND key_id = $2`, accountID, e.KeyID)
		case domain.APIKeyExpired:
			_, err = tx.Exec(ctx, `DELETE FROM api_keys WHERE account_id = $1 AND key_id = $2`, accountID, e.KeyID)
		}
		if err != nil {
			return fmt.Errorf("api keys: %s: %w", ev.EventType(), err)
		}
	}
	return nil
}

// rotateKeyRow retires or deletes the row of e.PreviousKeyID and inserts
// the new key's, which takes its name, mode, expiry and primacy.
func rotateKeyRow(ctx context.Context, tx pgx.Tx, accountID string, e domain.APIKeyRotated, now time.Time) error {
	var (
		name, mode string
		primary    bool
		expiresAt  *time.Time
	)
	q := `DELETE FROM api_keys WHERE account_id = $1 AND key_id = $2 RETURNING name, mode, is_primary, expires_at`
	args := []any{accountID, e.PreviousKeyID}
	if e.PreviousRetiresAt != nil {
		q = `UPDATE api_keys k SET is_primary = false, retires_at = $3 FROM api_keys o
			WHERE k.account_id = $1 AND k.key_id = $2 AND o.key_hash = k.key_hash
			RETURNING o.name, o.mode, o.is_primary, o.expires_at`
		args = append(args, *e.PreviousRetiresAt)
	}
	if err := tx.QueryRow(ctx, q, args...).Scan(&name, &mode, &primary, &expiresAt); err != nil {
		return fmt.Errorf("retire key %s: %w", e.PreviousKeyID, err)
	}
	_, err := tx.Exec(ctx, `INSERT INTO api_keys (key_hash, account_id, key_id, created_at, name, mode, prefix, encrypted, is_primary, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		e.Hash, accountID, e.KeyID, now, name, mode, e.Prefix, e.Encrypted, primary, expiresAt)
	return err
}

// KeyRow is a key as the API Keys page lists it.
type KeyRow struct {
	ID, Name, Prefix, Mode, Encrypted string
	Primary                           bool
	CreatedAt                         time.Time
	ExpiresAt, RetiresAt, LastUsedAt  *time.Time
}

// APIKeys returns accountID's working keys, the primary first, then by
// creation.
func (s *Store) APIKeys(ctx context.Context, accountID string) ([]KeyRow, error) {
	rows, err := s.pool.Query(ctx, `SELECT key_id, name, prefix, mode, encrypted, is_primary, created_at, expires_at, retires_at, last_used_at
		FROM api_keys WHERE account_id = $1
		AND (expires_at IS NULL OR expires_at > now()) AND (retires_at IS NULL OR retires_at > now())
		ORDER BY is_primary DESC, created_at, key_id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("list api keys: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (KeyRow, error) {
		var k KeyRow
		err := r.Scan(&k.ID, &k.Name, &k.Prefix, &k.Mode, &k.Encrypted, &k.Primary, &k.CreatedAt, &k.ExpiresAt, &k.RetiresAt, &k.LastUsedAt)
		return k, err
	})
}

// AccountsWithDueKeys returns up to limit accounts with a key whose expiry
// or rotation's grace has come.
func (s *Store) AccountsWithDueKeys(ctx context.Context, limit int) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT account_id::text FROM api_keys
		WHERE (expires_at IS NOT NULL OR retires_at IS NOT NULL) AND least(expires_at, retires_at) <= now() LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("due api keys: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}
