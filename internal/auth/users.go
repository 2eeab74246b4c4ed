package auth

// The users table beyond sign-in: the staff flag and the staff search.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
)

// SetStaff makes the account with email staff (or not). It returns
// ErrNoSuchUser when no account has that email.
func (s *Store) SetStaff(ctx context.Context, email string, staff bool) error {
	// A new staff member's open sessions get staff's idle bound at once,
	// not at their next request, and none of them counts as having passed
	// the second factor. A removed staff member is signed out everywhere,
	// so that being made staff again never brings back a session that
	// passed it before (issue 31, item 10).
	var n int
	err := s.pool.QueryRow(ctx, `WITH u AS (
			UPDATE users SET is_staff = $2 WHERE lower(email) = lower($1) RETURNING account_id, is_staff
		), clamped AS (
			UPDATE sessions s SET expires_at = LEAST(s.expires_at, now() + $3::float8 * interval '1 second'), mfa_passed_at = NULL
			FROM u WHERE s.account_id = u.account_id AND u.is_staff
		), ended AS (
			DELETE FROM sessions s USING u WHERE s.account_id = u.account_id AND NOT u.is_staff
		)
		SELECT count(*) FROM u`, strings.TrimSpace(email), staff, seconds(s.sessions.StaffIdle)).Scan(&n)
	if err != nil {
		return fmt.Errorf("set staff: %w", err)
	}
	if n == 0 {
		return ErrNoSuchUser
	}
	return nil
}

// IsStaff reports whether accountID is support staff.
func (s *Store) IsStaff(ctx context.Context, accountID string) (bool, error) {
	var staff bool
	err := s.pool.QueryRow(ctx, `SELECT is_staff FROM users WHERE account_id = $1`, accountID).Scan(&staff)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return false, fmt.Errorf("is staff: %w", err)
	}
	return staff, nil
}

// ErrNoSuchUser is returned for an email no account has.
var ErrNoSuchUser = errors.New("no account with that email")

// UserHit is a user found by FindUsers.
type UserHit struct {
	AccountID string
	Email     string
	IsStaff   bool
	CreatedAt time.Time
}

// FindUsers finds up to limit users by exact account id or by part of the
// email (case-insensitive), ordered by email: the staff console's search.
//
// A whole address is also looked for in its stored form, so
// v@bücher.example finds v@xn--bcher-kva.example.
func (s *Store) FindUsers(ctx context.Context, q string, limit int) ([]UserHit, error) {
	q = strings.ToLower(strings.TrimSpace(q))
	escape := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	like := "%" + escape.Replace(q) + "%"
	stored := like
	if strings.Contains(q, "@") {
		stored = "%" + escape.Replace(domain.NormalizeEmail(q)) + "%"
	}
	rows, err := s.pool.Query(ctx, `SELECT account_id::text, email, is_staff, created_at FROM users
		WHERE account_id::text = $1 OR lower(email) LIKE $2 OR lower(email) LIKE $4
		ORDER BY email LIMIT $3`, q, like, limit, stored)
	if err != nil {
		return nil, fmt.Errorf("find users: %w", err)
	}
	hits, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (UserHit, error) {
		var h UserHit
		err := r.Scan(&h.AccountID, &h.Email, &h.IsStaff, &h.CreatedAt)
		return h, err
	})
	if err != nil {
		return nil, fmt.Errorf("find users: %w", err)
	}
	return hits, nil
}

// UsersByID reads the users of accountIDs (those that exist), for the
// staff console's summaries beside other lists (the support inbox).
func (s *Store) UsersByID(ctx context.Context, accountIDs []string) ([]UserHit, error) {
	rows, err := s.pool.Query(ctx, `SELECT account_id::text, email, is_staff, created_at FROM users
		WHERE account_id::text = ANY($1)`, accountIDs)
	if err != nil {
		return nil, fmt.Errorf("read users: %w", err)
	}
	hits, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (UserHit, error) {
		var h UserHit
		err := r.Scan(&h.AccountID, &h.Email, &h.IsStaff, &h.CreatedAt)
		return h, err
	})
	if err != nil {
		return nil, fmt.Errorf("read users: %w", err)
	}
	return hits, nil
}
