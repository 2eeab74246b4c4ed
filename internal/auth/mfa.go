package auth

// The staff second factor: TOTP (RFC 6238, github.com/pquerna/otp) with
// single-use recovery codes (docs/auth.md, "Second factor for staff").

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/a2e-automation/app/domain"
)

// TOTP parameters: what every authenticator app reads by default.
const (
	totpPeriod = 30 // seconds
	// totpSkew is how many steps before and after now a code is accepted
	// in: a phone's clock a little off, a code typed as it turned.
	totpSkew = 1
	// RecoveryCodes is how many recovery codes an enrolment makes.
	RecoveryCodes = 10
)

var totpOpts = totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// Why a second-factor call was refused, in the domain's vocabulary.
var (
	ErrMFAEnrolled = domain.Errorf(domain.CodeConflict,
		"A second factor is already enrolled. If its device is lost, an operator can reset it (bin/api staff reset-mfa EMAIL).")
	ErrMFANotEnrolling = domain.Errorf(domain.CodeConflict, "Set up the second factor first.")
	ErrMFACodeInvalid  = domain.Errorf(domain.CodeInvalid, "That code is not valid. Enter the 6-digit code your authenticator app shows now, or an unused recovery code.")
	errNoSealer        = errors.New("auth: no APP_SECRET to seal second-factor secrets")
)

// Enrolment is a new second factor, shown once: the TOTP secret (base32),
// its otpauth:// URL and the recovery codes. None is stored in clear.
type Enrolment struct {
	Secret        string   `json:"secret"`
	OTPAuthURL    string   `json:"otpauthUrl"`
	RecoveryCodes []string `json:"recoveryCodes"`
}

// EnrollMFA starts (or starts again) the second-factor enrolment of staff
// member accountID, named email in the authenticator app under issuer. It
// fails with ErrMFAEnrolled once a code has verified: only a reset
// (ResetMFA) allows a new enrolment then.
func (s *Store) EnrollMFA(ctx context.Context, accountID, email, issuer string, now time.Time) (Enrolment, error) {
	if s.sealer == nil {
		return Enrolment{}, errNoSealer
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: issuer, AccountName: email, Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return Enrolment{}, fmt.Errorf("totp secret: %w", err)
	}
	sealed, err := s.sealer.Encrypt(key.Secret())
	if err != nil {
		return Enrolment{}, err
	}
	codes := make([]string, RecoveryCodes)
	for i := range codes {
		codes[i] = newRecoveryCode()
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return Enrolment{}, fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	// The upsert does nothing (no row) when the enrolment is complete.
	tag, err := tx.Exec(ctx, `INSERT INTO staff_mfa AS m (account_id, secret_enc, created_at) VALUES ($1, $2, $3)
		ON CONFLICT (account_id) DO UPDATE SET secret_enc = excluded.secret_enc, created_at = excluded.created_at, last_step = 0
		WHERE m.enrolled_at IS NULL`, accountID, sealed, now)
	if err != nil {
		return Enrolment{}, fmt.Errorf("store second factor: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return Enrolment{}, ErrMFAEnrolled
	}
	if _, err := tx.Exec(ctx, `DELETE FROM staff_recovery_codes WHERE account_id = $1`, accountID); err != nil {
		return Enrolment{}, fmt.Errorf("replace recovery codes: %w", err)
	}
	hashes := make([]string, len(codes))
	for i, c := range codes {
		hashes[i] = s.recoveryHash(accountID, c)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO staff_recovery_codes (account_id, code_hash) SELECT $1, unnest($2::text[])`, accountID, hashes); err != nil {
		return Enrolment{}, fmt.Errorf("store recovery codes: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return Enrolment{}, fmt.Errorf("commit second factor: %w", err)
	}
	return Enrolment{Secret: key.Secret(), OTPAuthURL: key.URL(), RecoveryCodes: codes}, nil
}

// MFAVerified is what a verified code did.
type MFAVerified struct {
	Enrolled          bool // this code completed the enrolment
	RecoveryCodeUsed  bool
	RecoveryCodesLeft int
	// Token is the session's new token: the one the code was entered with
	// ends, so a token seen before the second factor (a shared screen, a
	// fixated cookie) never opens the console (issue 31, item 10).
	Token string
}

// VerifyMFA checks code, a TOTP code or an unused recovery code, against
// sess's staff member and, when it is right, replaces sess by a session
// that has passed the second factor, under a new token (MFAVerified.Token;
// sess's token ends), with sess's sign-in time and expiry, and completes
// an enrolment under way. A TOTP code is
// accepted once: its time step must be later than the last one accepted.
// A wrong code is ErrMFACodeInvalid; throttling is the caller's (the same
// limits store as sign-in's).
func (s *Store) VerifyMFA(ctx context.Context, sess Session, code string, now time.Time) (MFAVerified, error) {
	if s.sealer == nil {
		return MFAVerified{}, errNoSealer
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return MFAVerified{}, fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var sealed string
	var enrolledAt *time.Time
	var lastStep int64
	err = tx.QueryRow(ctx, `SELECT secret_enc, enrolled_at, last_step FROM staff_mfa WHERE account_id = $1 FOR UPDATE`, sess.AccountID).
		Scan(&sealed, &enrolledAt, &lastStep)
	if errors.Is(err, pgx.ErrNoRows) {
		return MFAVerified{}, ErrMFANotEnrolling
	}
	if err != nil {
		return MFAVerified{}, fmt.Errorf("load second factor: %w", err)
	}
	var v MFAVerified
	code = normalizeMFACode(code)
	if IsSixDigits(code) {
		secret, err := s.sealer.Decrypt(sealed)
		if err != nil {
			return MFAVerified{}, err
		}
		step, ok := matchTOTP(secret, code, now, lastStep)
		if !ok {
			return MFAVerified{}, ErrMFACodeInvalid
		}
		if _, err := tx.Exec(ctx, `UPDATE staff_mfa SET last_step = $2 WHERE account_id = $1`, sess.AccountID, step); err != nil {
			return MFAVerified{}, fmt.Errorf("record totp step: %w", err)
		}
	} else {
		tag, err := tx.Exec(ctx, `UPDATE staff_recovery_codes SET used_at = $3 WHERE account_id = $1 AND code_hash = $2 AND used_at IS NULL`,
			sess.AccountID, s.recoveryHash(sess.AccountID, code), now)
		if err != nil {
			return MFAVerified{}, fmt.Errorf("use recovery code: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return MFAVerified{}, ErrMFACodeInvalid
		}
		v.RecoveryCodeUsed = true
	}
	if enrolledAt == nil {
		v.Enrolled = true
		if _, err := tx.Exec(ctx, `UPDATE staff_mfa SET enrolled_at = $2 WHERE account_id = $1`, sess.AccountID, now); err != nil {
			return MFAVerified{}, fmt.Errorf("complete enrolment: %w", err)
		}
	}
	if v.Token, err = NewToken(); err != nil {
		return MFAVerified{}, err
	}
	tag, err := tx.Exec(ctx, `WITH old AS (
			DELETE FROM sessions WHERE token_hash = $1 AND account_id = $2 RETURNING account_id, created_at, expires_at
		)
		INSERT INTO sessions (token_hash, account_id, created_at, expires_at, mfa_passed_at)
		SELECT $3, account_id, created_at, expires_at, $4 FROM old`, sess.tokenHash, sess.AccountID, HashToken(v.Token), now)
	if err != nil {
		return MFAVerified{}, fmt.Errorf("renew session: %w", err)
	}
	if tag.RowsAffected() == 0 { // signed out meanwhile
		return MFAVerified{}, ErrNoSession
	}
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM staff_recovery_codes WHERE account_id = $1 AND used_at IS NULL`, sess.AccountID).
		Scan(&v.RecoveryCodesLeft); err != nil {
		return MFAVerified{}, fmt.Errorf("count recovery codes: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return MFAVerified{}, fmt.Errorf("commit second factor: %w", err)
	}
	return v, nil
}

// ResetMFA removes the second factor of the account with email (a lost
// device) and ends its sessions: the next sign-in enrols again. It returns
// ErrNoSuchUser when no account has that email.
func (s *Store) ResetMFA(ctx context.Context, email string) error {
	var n int
	err := s.pool.QueryRow(ctx, `WITH u AS (
			SELECT account_id FROM users WHERE lower(email) = lower($1)
		), gone AS (
			DELETE FROM staff_mfa m USING u WHERE m.account_id = u.account_id
		), ended AS (
			DELETE FROM sessions s USING u WHERE s.account_id = u.account_id
		)
		SELECT count(*) FROM u`, strings.TrimSpace(email)).Scan(&n)
	if err != nil {
		return fmt.Errorf("reset second factor: %w", err)
	}
	if n == 0 {
		return ErrNoSuchUser
	}
	return nil
}

// MFAEnrolled reports whether accountID has completed a second-factor
// enrolment.
func (s *Store) MFAEnrolled(ctx context.Context, accountID string) (bool, error) {
	var enrolled bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM staff_mfa WHERE account_id = $1 AND enrolled_at IS NOT NULL)`, accountID).Scan(&enrolled)
	if err != nil {
		return false, fmt.Errorf("second factor: %w", err)
	}
	return enrolled, nil
}

// matchTOTP finds the time step within totpSkew of now whose code is code
// and that is later than last.
func matchTOTP(secret, code string, now time.Time, last int64) (int64, bool) {
	current := now.Unix() / totpPeriod
	for step := current - totpSkew; step <= current+totpSkew; step++ {
		if step <= last {
			continue
		}
		want, err := totp.GenerateCodeCustom(secret, time.Unix(step*totpPeriod, 0), totpOpts)
		if err == nil && hmac.Equal([]byte(want), []byte(code)) {
			return step, true
		}
	}
	return 0, false
}

// recoveryAlphabet spells recovery codes: lowercase letters and digits
// without 0, 1, l and o, which read alike.
const recoveryAlphabet = "abcdefghijkmnpqrstuvwxyz23456789"

// newRecoveryCode is 10 random characters (50 bits) as xxxxx-xxxxx.
func newRecoveryCode() string {
	b := make([]byte, 10)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	out := make([]byte, 0, 11)
	for i, c := range b {
		if i == 5 {
			out = append(out, '-')
		}
		out = append(out, recoveryAlphabet[int(c)%len(recoveryAlphabet)])
	}
	return string(out)
}

// normalizeMFACode reads a code as typed: spaces and hyphens dropped,
// letters lowercased.
func normalizeMFACode(code string) string {
	return strings.ToLower(strings.NewReplacer(" ", "", "-", "", "\t", "").Replace(strings.TrimSpace(code)))
}

// IsSixDigits reports whether s is six ASCII digits: the shape of an
// email verification code and of a TOTP code.
func IsSixDigits(s string) bool {
	if len(s) != 6 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// recoveryHash is a recovery code's stored form: the verification codes'
// keyed hash, bound to the account, with the hyphen dropped.
func (s *Store) recoveryHash(accountID, code string) string {
	return s.codeHash(accountID, "recovery:"+normalizeMFACode(code))
}
