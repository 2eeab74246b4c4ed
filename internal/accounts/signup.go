package accounts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/apikeys"
)

// ErrEmailTaken is the answer to a registration with a known email.
var ErrEmailTaken = domain.Errorf(domain.CodeConflict, "An account with this email already exists")

// Signup is a new account.
type Signup struct {
	AccountID string
	Email     string
	APIKey    string // shown to the seller; stored only hashed and encrypted
	Result    eventstore.Result
}

// Register opens an account: its credentials row, its API key lookup row and
// its first events, in one transaction. passwordHash is already hashed.
func (r *Repository) Register(ctx context.Context, keys *apikeys.Keys, email, passwordHash string, md eventstore.Metadata) (Signup, error) {
	s := Signup{AccountID: uuid.NewString(), Email: domain.NormalizeEmail(email)}
	res, err := r.Create(ctx, s.AccountID, eventstore.UpdateOptions{Metadata: md}, func(ctx context.Context, tx pgx.Tx, now time.Time) (*domain.Account, error) {
		plain, material, err := keys.Generate()
		if err != nil {
			return nil, err
		}
		a, err := domain.Register(s.AccountID, s.Email, material, now)
		if err != nil {
			return nil, err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO users (account_id, email, password_hash, created_at) VALUES ($1, $2, $3, $4)`,
			s.AccountID, a.Email(), passwordHash, now); err != nil {
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) && pgErr.Code == "23505" {
				return nil, ErrEmailTaken
			}
			return nil, fmt.Errorf("insert user: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO api_keys (key_hash, account_id, key_id, created_at) VALUES ($1, $2, $3, $4)`,
			material.Hash, s.AccountID, material.KeyID, now); err != nil {
			return nil, fmt.Errorf("insert api key: %w", err)
		}
		s.APIKey = plain
		s.Email = a.Email()
		return a, nil
	})
	if err != nil {
		return Signup{}, err
	}
	s.Result = res
	return s, nil
}

// RotateAPIKey replaces the account's API key; the old key stops working in
// the same transaction that records the rotation. It returns the new key.
func (r *Repository) RotateAPIKey(ctx context.Context, keys *apikeys.Keys, accountID string, md eventstore.Metadata) (string, eventstore.Result, error) {
	var plain string
	res, err := r.Update(ctx, accountID, eventstore.UpdateOptions{Metadata: md}, func(ctx context.Context, tx pgx.Tx, a *domain.Account, now time.Time) (any, error) {
		p, material, err := keys.Generate()
		if err != nil {
			return nil, err
		}
		if err := a.RotateAPIKey(material, now); err != nil {
			return nil, err
		}
		if _, err := tx.Exec(ctx, `UPDATE api_keys SET key_hash = $2, key_id = $3, created_at = $4 WHERE account_id = $1`,
			accountID, material.Hash, material.KeyID, now); err != nil {
			return nil, fmt.Errorf("replace api key: %w", err)
		}
		plain = p
		return nil, nil
	})
	return plain, res, err
}
