package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/big"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/mail"
)

// Email verification codes: 6 digits, kept as a keyed hash, valid
// CodeTTL, refused after MaxCodeAttempts wrong tries. A new code replaces
// the previous one and may be sent at most once per ResendInterval.
const (
	CodeTTL         = 15 * time.Minute
	MaxCodeAttempts = 5
	ResendInterval  = time.Minute
)

// Why a verification code was refused: domain errors with the spec's
// messages, so every adapter answers them the same way.
var (
	ErrCodeInvalid  = domain.Errorf(domain.CodeInvalid, "Invalid verification code")
	ErrCodeExpired  = domain.Errorf(domain.CodeInvalid, "Verification code has expired. Please request a new one.")
	ErrCodeAttempts = domain.Errorf(domain.CodeInvalid, "Too many attempts. Please request a new code.")
)

// TooSoonError refuses a new code sent within ResendInterval of the last;
// it is a domain CodeRateLimited error (errors.As) with its RetryAfter.
type TooSoonError struct {
	RetryAfter time.Duration // until the next code may be sent
}

func (e *TooSoonError) Error() string {
	return fmt.Sprintf("a verification code was sent recently; retry in %s", e.RetryAfter)
}

// Unwrap is the refusal in the domain's vocabulary.
func (e *TooSoonError) Unwrap() error {
	secs := int(math.Ceil(e.RetryAfter.Seconds()))
	return domain.RateLimited(time.Duration(secs)*time.Second, "Please wait %d seconds before requesting a new code.", secs)
}

// IssueVerificationCode makes a new code for accountID, replacing any
// earlier one, and queues the mail that compose makes of it in the mail
// outbox, in the same transaction: the code and its mail exist together or
// not at all, and no network call waits inside. Within ResendInterval of
// the last code it fails with *TooSoonError.
func (s *Store) IssueVerificationCode(ctx context.Context, accountID string, now time.Time, compose func(code string) mail.Message) error {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return fmt.Errorf("random code: %w", err)
	}
	code := fmt.Sprintf("%06d", n.Int64())
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	tag, err := tx.Exec(ctx, `INSERT INTO verification_codes (account_id, code_hash, expires_at, attempts, sent_at)
		VALUES ($1, $2, $3, 0, $4)
		ON CONFLICT (account_id) DO UPDATE SET code_hash = excluded.code_hash, expires_at = excluded.expires_at,
			attempts = 0, sent_at = excluded.sent_at
		WHERE verification_codes.sent_at <= $5`,
		accountID, s.codeHash(accountID, code), now.Add(CodeTTL), now, now.Add(-ResendInterval))
	if err != nil {
		return fmt.Errorf("store verification code: %w", err)
	}
	if tag.RowsAffected() == 0 {
		var sentAt time.Time
		if err := tx.QueryRow(ctx, `SELECT sent_at FROM verification_codes WHERE account_id = $1`, accountID).Scan(&sentAt); err != nil {
			return fmt.Errorf("load verification code: %w", err)
		}
		return &TooSoonError{RetryAfter: sentAt.Add(ResendInterval).Sub(now)}
	}
	if err := mail.Enqueue(ctx, tx, mail.KindVerification, compose(code), now); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit verification code: %w", err)
	}
	return nil
}

// UseVerificationCode checks code against accountID's current code through
// q and, when it matches, deletes it. Every try is counted, so q must be
// committed even when the check fails, or the failed try does not count.
// It returns ErrCodeInvalid (no code, or a wrong one), ErrCodeAttempts
// (more than MaxCodeAttempts tries) or ErrCodeExpired.
func (s *Store) UseVerificationCode(ctx context.Context, q Execer, accountID, code string, now time.Time) error {
	var hash string
	var expiresAt time.Time
	var attempts int
	err := q.QueryRow(ctx, `UPDATE verification_codes SET attempts = attempts + 1 WHERE account_id = $1
		RETURNING code_hash, expires_at, attempts`, accountID).Scan(&hash, &expiresAt, &attempts)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return ErrCodeInvalid
	case err != nil:
		return fmt.Errorf("count verification try: %w", err)
	case attempts > MaxCodeAttempts:
		return ErrCodeAttempts
	case !now.Before(expiresAt):
		return ErrCodeExpired
	case !hmac.Equal([]byte(hash), []byte(s.codeHash(accountID, code))):
		return ErrCodeInvalid
	}
	if _, err := q.Exec(ctx, `DELETE FROM verification_codes WHERE account_id = $1`, accountID); err != nil {
		return fmt.Errorf("delete verification code: %w", err)
	}
	return nil
}

// codeHash is the stored form of a code: an HMAC under the server's secret,
// bound to the account, so a copy of the table alone does not give the
// million possible codes away.
func (s *Store) codeHash(accountID, code string) string {
	m := hmac.New(sha256.New, s.codeKey)
	m.Write([]byte(accountID + ":" + code))
	return hex.EncodeToString(m.Sum(nil))
}
