package auth

// The api_keys table: the desktop client's key, looked up by its hash.

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// AccountForAPIKey returns the account whose current API key has hash
// keyHash, or ErrUnknownAPIKey.
func (s *Store) AccountForAPIKey(ctx context.Context, keyHash string) (string, error) {
	var id string
	err := s.pool.QueryRow(ctx, `SELECT account_id::text FROM api_keys WHERE key_hash = $1`, keyHash).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", ErrUnknownAPIKey
	}
	if err != nil {
		return "", fmt.Errorf("look up api key: %w", err)
	}
	return id, nil
}

// ErrUnknownAPIKey is returned for a key that is not any account's current key.
var ErrUnknownAPIKey = errors.New("unknown API key")
