package auth

import (
	"context"
	"errors"
	"fmt"
	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
)

// ErrBadCredentials is the one answer to a wrong email or a wrong password.
var ErrBadCredentials = domain.Errorf(domain.CodeUnauthorized, "Invalid email or password")

// HashPassword returns the stored form of password.
func (s *Store) HashPassword(ctx context.Context, password string) (string, error) {
	return s.passwords.hash(ctx, password)
}

// Authenticate returns the account whose email and password these are,
// with the email as registered, or ErrBadCredentials. An unknown email
// costs the same hashing as a known one, so the answer's timing does not
// tell them apart.
func (s *Store) Authenticate(ctx context.Context, email, password string) (accountID, registered string, err error) {
	var hash string
	err = s.pool.QueryRow(ctx, `SELECT account_id::text, email, password_hash FROM users WHERE lower(email) = lower($1)`,
		domain.NormalizeEmail(email)).Scan(&accountID, &registered, &hash)
	if errors.Is(err, pgx.ErrNoRows) {
		s.passwords.checkNone(ctx, password)
		return "", "", ErrBadCredentials
	}
	if err != nil {
		return "", "", fmt.Errorf("load credentials: %w", err)
	}
	ok, err := s.passwords.check(ctx, hash, password)
	if err != nil {
		return "", "", fmt.Errorf("check password of %s: %w", accountID, err)
	}
	if !ok {
		return "", "", ErrBadCredentials
	}
	return accountID, registered, nil
}

// AccountByEmail returns the account registered with email, or
// ErrNoSuchUser.
func (s *Store) AccountByEmail(ctx context.Context, email string) (string, error) {
	return accountByEmail(ctx, s.pool, email)
}

// accountByEmail is AccountByEmail through q (the reset worker's
// transaction).
func accountByEmail(ctx context.Context, q Execer, email string) (string, error) {
	var id string
	err := q.QueryRow(ctx, `SELECT account_id::text FROM users WHERE lower(email) = lower($1)`, domain.NormalizeEmail(email)).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", ErrNoSuchUser
	}
	if err != nil {
		return "", fmt.Errorf("look up account by email: %w", err)
	}
	return id, nil
}
