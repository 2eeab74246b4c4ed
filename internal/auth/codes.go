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
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/mail"
)

// Email verification codes: 6 digits, kept as a keyed hash, valid
// CodeTTL, refused after MaxCodeAttempts wrong tries. A new code replaces
// the previous one and may be sent at most once per ResendInterval,
// CodesPerHour times an hour and CodesPerDay times a day: a guesser gets
// CodesPerDay × MaxCodeAttempts tries a day at most (50 in a million), and
// a mailbox at most CodesPerDay codes a day from one account.
const (
	CodeTTL         = 15 * time.Minute
	MaxCodeAttempts = 5
	ResendInterval  = time.Minute
	CodesPerHour    = 5
	CodesPerDay     = 10
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

// Unwrap is the refusal in the domain's vocabulary: the spec's message
// within the minute, a wait in minutes or hours beyond it (the hourly and
// daily caps).
func (e *TooSoonError) Unwrap() error {
	secs := int(math.Ceil(e.RetryAfter.Seconds()))
	wait := time.Duration(secs) * time.Second
	switch {
	case wait <= ResendInterval:
		return domain.RateLimited(wait, "Please wait %d seconds before requesting a new code.", secs)
	case wait < 90*time.Minute:
		return domain.RateLimited(wait, "Too many codes requested. Please wait %d minutes before requesting a new code.", int(math.Ceil(wait.Minutes())))
	default:
		return domain.RateLimited(wait, "Too many codes requested. Please wait %d hours before requesting a new code.", int(math.Ceil(wait.Hours())))
	}
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
	// The upsert keeps the last day's sends and refuses (no row) within
	// ResendInterval of the last code or over a cap; the row lock orders
	// concurrent requests.
	tag, err := tx.Exec(ctx, `INSERT INTO verification_codes AS v (account_id, code_hash, expires_at, attempts, sent_at, sends)
		VALUES ($1, $2, $3, 0, $4, ARRAY[$4::timestamptz])
		ON CONFLICT (account_id) DO UPDATE SET code_hash = excluded.code_hash, expires_at = excluded.expires_at,
			attempts = 0, sent_at = excluded.sent_at,
			sends = ARRAY(SELECT x FROM unnest(v.sends) x WHERE x > $6 ORDER BY x) || $4::timestamptz
		WHERE v.sent_at <= $5
			AND (SELECT count(*) FROM unnest(v.sends) x WHERE x > $7) < $8
			AND (SELECT count(*) FROM unnest(v.sends) x WHERE x > $6) < $9`,
		accountID, s.codeHash(accountID, code), now.Add(CodeTTL), now, now.Add(-ResendInterval),
		now.Add(-24*time.Hour), now.Add(-time.Hour), CodesPerHour, CodesPerDay)
	if err != nil {
		return fmt.Errorf("store verification code: %w", err)
	}
	if tag.RowsAffected() == 0 {
		var sentAt time.Time
		var sends []time.Time
		if err := tx.QueryRow(ctx, `SELECT sent_at, sends FROM verification_codes WHERE account_id = $1`, accountID).Scan(&sentAt, &sends); err != nil {
			return fmt.Errorf("load verification code: %w", err)
		}
		return &TooSoonError{RetryAfter: nextCodeAfter(sentAt, sends, now).Sub(now)}
	}
	if err := mail.Enqueue(ctx, tx, mail.KindVerification, compose(code), now); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit verification code: %w", err)
	}
	return nil
}

// nextCodeAfter is when the next code may be sent, given the last one's
// time and the last day's sends (oldest first): a minute after the last,
// and once enough sends have left the hour and the day.
func nextCodeAfter(last time.Time, sends []time.Time, now time.Time) time.Time {
	slices.SortFunc(sends, time.Time.Compare)
	next := last.Add(ResendInterval)
	for _, w := range []struct {
		window time.Duration
		cap    int
	}{{time.Hour, CodesPerHour}, {24 * time.Hour, CodesPerDay}} {
		var in []time.Time
		for _, t := range sends {
			if t.After(now.Add(-w.window)) {
				in = append(in, t)
			}
		}
		if len(in) >= w.cap { // the send that must age out first
			if t := in[len(in)-w.cap].Add(w.window); t.After(next) {
				next = t
			}
		}
	}
	return next
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
