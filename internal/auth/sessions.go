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

	"github.com/a2e-automation/app/internal/apikeys"
)

// SessionTTL is how long a session lasts at most, however busy.
const SessionTTL = 30 * 24 * time.Hour

// SessionPolicy bounds sessions: each lasts at most Lifetime from sign-in
// and ends after Idle without a request (StaffIdle for staff, whose
// sessions open every account).
type SessionPolicy struct {
	Lifetime, Idle, StaffIdle time.Duration
}

// DefaultSessionPolicy is 30 days at most, 7 idle days, 8 idle hours for staff.
var DefaultSessionPolicy = SessionPolicy{Lifetime: SessionTTL, Idle: 7 * 24 * time.Hour, StaffIdle: 8 * time.Hour}

// sessionTouchEvery is how stale a session's expiry may get before a
// request moves it: one write a minute per busy session, not one a request.
const sessionTouchEvery = time.Minute

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
	codeKey   []byte        // HMAC key of verification code hashes
	sealer    *apikeys.Keys // seals staff TOTP secrets at rest (nil without a secret)
	sessions  SessionPolicy
}

// NewStore returns a Store on pool; secret (APP_SECRET) keys the hashes of
// verification codes, which are too short to be stored with a plain hash.
func NewStore(pool *pgxpool.Pool, secret string) *Store {
	k := sha256.Sum256([]byte("a2e verification code\x00" + secret))
	sealer, _ := apikeys.NewSealer("a2e staff totp secret", secret) // nil for an empty secret: MFA calls then fail
	return &Store{pool: pool, passwords: newHasher(), codeKey: k[:], sealer: sealer, sessions: DefaultSessionPolicy}
}

// WithSessionPolicy returns the store with sessions bounded by p.
func (s *Store) WithSessionPolicy(p SessionPolicy) *Store {
	c := *s
	c.sessions = p
	return &c
}

// seconds is d as PostgreSQL reads it in the session queries ($n * interval '1 second').
func seconds(d time.Duration) float64 { return d.Seconds() }

// Session is a signed-in user.
type Session struct {
	AccountID string
	Email     string
	IsStaff   bool
	// MFAEnrolled: the staff member has a second factor; MFAPassed: this
	// session has passed it (docs/auth.md). Staff routes need MFAPassed.
	MFAEnrolled bool
	MFAPassed   bool
	tokenHash   string
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
	// The first expiry is already the idle one, staff's if the user is staff.
	tag, err := q.Exec(ctx, `INSERT INTO sessions (token_hash, account_id, created_at, expires_at)
		SELECT $1, u.account_id, $3::timestamptz, $3::timestamptz + LEAST($4::float8, CASE WHEN u.is_staff THEN $6::float8 ELSE $5::float8 END) * interval '1 second'
		FROM users u WHERE u.account_id = $2`,
		HashToken(token), accountID, now, seconds(s.sessions.Lifetime), seconds(s.sessions.Idle), seconds(s.sessions.StaffIdle))
	if err != nil {
		return "", fmt.Errorf("create session: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return "", fmt.Errorf("create session: no user %s", accountID)
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

// sessionQuery reads a live session and moves its expiry to the idle bound
// from now (never past Lifetime from sign-in): forward when it is more than
// sessionTouchEvery stale, back at once when the bound shrank (a new
// policy, a user made staff). The UPDATE runs whether or not the SELECT
// reads it, in the same statement.
const sessionQuery = `WITH live AS (
	SELECT s.token_hash, u.account_id, u.email, u.is_staff, s.expires_at, s.mfa_passed_at IS NOT NULL AS mfa_passed,
		LEAST(s.created_at + $3::float8 * interval '1 second',
			$2::timestamptz + CASE WHEN u.is_staff THEN $5::float8 ELSE $4::float8 END * interval '1 second') AS next_expiry
	FROM sessions s JOIN users u USING (account_id)
	WHERE s.token_hash = $1 AND s.expires_at > $2
), touched AS (
	UPDATE sessions s SET expires_at = live.next_expiry FROM live
	WHERE s.token_hash = live.token_hash
		AND (live.expires_at > live.next_expiry OR live.expires_at < live.next_expiry - $6::float8 * interval '1 second')
)
SELECT account_id::text, email, is_staff, mfa_passed,
	is_staff AND EXISTS (SELECT 1 FROM staff_mfa m WHERE m.account_id = live.account_id AND m.enrolled_at IS NOT NULL)
FROM live`

// Session returns the live session of token: signed in less than Lifetime
// ago and used within the idle bound, which this use renews.
func (s *Store) Session(ctx context.Context, token string, now time.Time) (Session, error) {
	if token == "" {
		return Session{}, ErrNoSession
	}
	sess := Session{tokenHash: HashToken(token)}
	p := s.sessions
	err := s.pool.QueryRow(ctx, sessionQuery, sess.tokenHash, now, seconds(p.Lifetime), seconds(p.Idle), seconds(p.StaffIdle),
		seconds(sessionTouchEvery)).Scan(&sess.AccountID, &sess.Email, &sess.IsStaff, &sess.MFAPassed, &sess.MFAEnrolled)
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
