// Package auth keeps the operational secrets of sign-in: sessions, password
// hashes, verification codes and reset tokens. None of them ever goes into
// an event; tokens and codes are stored only as hashes.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// SessionTTL is how long a session lasts.
const SessionTTL = 30 * 24 * time.Hour

// ErrNoSession is returned for a missing, unknown or expired session token.
var ErrNoSession = errors.New("no session")

// Execer runs statements: a pool or a transaction.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Store reads and writes the sign-in tables.
type Store struct {
	pool      *pgxpool.Pool
	passwords *hasher
	codeKey   []byte // HMAC key of verification code hashes
}

// NewStore returns a Store on pool; secret (APP_SECRET) keys the hashes of
// verification codes, which are too short to be stored with a plain hash.
func NewStore(pool *pgxpool.Pool, secret string) *Store {
	k := sha256.Sum256([]byte("a2e verification code\x00" + secret))
	return &Store{pool: pool, passwords: newHasher(), codeKey: k[:]}
}

// Session is a signed-in user.
type Session struct {
	AccountID string
	Email     string
	IsStaff   bool
	tokenHash string
}

// TokenHash identifies the session without its secret.
func (s Session) TokenHash() string { return s.tokenHash }

// NewToken returns a random URL-safe secret of 32 bytes.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// HashToken is the stored form of a token, code or key secret.
func HashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// CreateSession starts a session for accountID through q (a transaction when
// the sign-in must be atomic with other writes) and returns its token.
func (s *Store) CreateSession(ctx context.Context, q Execer, accountID string, now time.Time) (string, error) {
	token, err := NewToken()
	if err != nil {
		return "", err
	}
	if _, err := q.Exec(ctx, `INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
		HashToken(token), accountID, now, now.Add(SessionTTL)); err != nil {
		return "", fmt.Errorf("create session: %w", err)
	}
	return token, nil
}

// StartSession signs accountID in: it ends the session of previous (the
// token the request came with; empty: none), starts a new one and returns
// its token.
func (s *Store) StartSession(ctx context.Context, previous, accountID string, now time.Time) (string, error) {
	if previous != "" {
		if err := s.DeleteSession(ctx, previous); err != nil {
			return "", err
		}
	}
	return s.CreateSession(ctx, s.pool, accountID, now)
}

// Session returns the live session of token.
func (s *Store) Session(ctx context.Context, token string, now time.Time) (Session, error) {
	if token == "" {
		return Session{}, ErrNoSession
	}
	sess := Session{tokenHash: HashToken(token)}
	err := s.pool.QueryRow(ctx, `SELECT u.account_id::text, u.email, u.is_staff FROM sessions s JOIN users u USING (account_id)
		WHERE s.token_hash = $1 AND s.expires_at > $2`, sess.tokenHash, now).Scan(&sess.AccountID, &sess.Email, &sess.IsStaff)
	if errors.Is(err, pgx.ErrNoRows) {
		return Session{}, ErrNoSession
	}
	if err != nil {
		return Session{}, fmt.Errorf("load session: %w", err)
	}
	return sess, nil
}

// DeleteSession ends the session of token (signing out).
func (s *Store) DeleteSession(ctx context.Context, token string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, HashToken(token)); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}

// DeleteSessions ends every session of accountID through q, except the one
// whose hash is keepHash (empty: none kept).
func (s *Store) DeleteSessions(ctx context.Context, q Execer, accountID, keepHash string) error {
	if _, err := q.Exec(ctx, `DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2`, accountID, keepHash); err != nil {
		return fmt.Errorf("delete sessions: %w", err)
	}
	return nil
}
