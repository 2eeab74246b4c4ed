package auth

import (
	"context"
	"errors"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

func TestPasswordHashes(t *testing.T) {
	ctx := context.Background()
	h := newHasher()
	a, err := h.hash(ctx, "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := h.hash(ctx, "correct horse")
	if a == b {
		t.Fatal("two hashes of one password are equal (no salt)")
	}
	if !strings.HasPrefix(a, "$argon2id$v=19$m=19456,t=2,p=1$") || strings.Contains(a, "correct horse") {
		t.Fatalf("hash %q", a)
	}
	for pw, want := range map[string]bool{"correct horse": true, "correct horsE": false, "": false} {
		if ok, err := h.check(ctx, a, pw); err != nil || ok != want {
			t.Errorf("check(%q) = %v, %v; want %v", pw, ok, err, want)
		}
	}
	// A hash made with other parameters stays checkable.
	old := encodeHash(8*1024, 1, 1, newSalt(), "older password")
	if ok, err := h.check(ctx, old, "older password"); err != nil || !ok {
		t.Fatalf("check of a cheaper hash = %v, %v", ok, err)
	}
	for _, bad := range []string{"", "not-a-real-hash", "$argon2i$v=19$m=1,t=1,p=1$AA$AA", "$argon2id$v=19$m=0,t=1,p=1$AA$AA", "$argon2id$v=19$m=1,t=1,p=1$!!$AA"} {
		if _, err := h.check(ctx, bad, "x"); !errors.Is(err, errMalformedHash) {
			t.Errorf("check(%q) err = %v", bad, err)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	for range cap(h.slots) {
		h.slots <- struct{}{}
	}
	cancel()
	if _, err := h.hash(cancelled, "x"); !errors.Is(err, context.Canceled) {
		t.Fatalf("hash with every slot taken and a cancelled context = %v", err)
	}
}

// fixture is a Store on a fresh database with one user.
type fixture struct {
	pool    *pgxpool.Pool
	store   *Store
	account string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	pool := testdb.New(t)
	s := NewStore(pool, "test secret")
	f := &fixture{pool: pool, store: s}
	f.account = f.addUser(t, "Seller@Example.com", "s3cret-password")
	return f
}

func (f *fixture) addUser(t *testing.T, email, password string) string {
	t.Helper()
	ctx := context.Background()
	hash, err := f.store.HashPassword(ctx, password)
	if err != nil {
		t.Fatal(err)
	}
	id := uuid.NewString()
	if _, err := f.pool.Exec(ctx, `INSERT INTO users (account_id, email, password_hash) VALUES ($1, $2, $3)`, id, email, hash); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestAuthenticate(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	id, email, err := f.store.Authenticate(ctx, " seller@EXAMPLE.com", "s3cret-password")
	if err != nil || id != f.account || email != "Seller@Example.com" {
		t.Fatalf("right credentials = %q %q, %v", id, email, err)
	}
	for _, c := range [][2]string{{"seller@example.com", "wrong-password"}, {"nobody@example.com", "s3cret-password"}} {
		if _, _, err := f.store.Authenticate(ctx, c[0], c[1]); !errors.Is(err, ErrBadCredentials) {
			t.Errorf("Authenticate(%q, %q) = %v", c[0], c[1], err)
		}
	}
	if got, err := f.store.AccountByEmail(ctx, "SELLER@example.com"); err != nil || got != f.account {
		t.Fatalf("AccountByEmail = %q, %v", got, err)
	}
	if _, err := f.store.AccountByEmail(ctx, "nobody@example.com"); !errors.Is(err, ErrNoSuchUser) {
		t.Fatalf("AccountByEmail(unknown) = %v", err)
	}
}

// issue issues a code at now and returns it.
func (f *fixture) issue(t *testing.T, now time.Time) (string, error) {
	t.Helper()
	var code string
	err := f.store.IssueVerificationCode(context.Background(), f.account, now, func(c string) mail.Message {
		code = c
		return mail.Message{To: "seller@example.com", Subject: "code", Text: c}
	})
	return code, err
}

// use tries code at now in its own committed transaction.
func (f *fixture) use(t *testing.T, code string, now time.Time) error {
	t.Helper()
	ctx := context.Background()
	tx, err := f.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	used := f.store.UseVerificationCode(ctx, tx, f.account, code, now)
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	return used
}

func wrong(code string) string {
	if code == "000000" {
		return "000001"
	}
	return "000000"
}

func TestVerificationCodes(t *testing.T) {
	f := newFixture(t)
	t0 := time.Now().UTC().Truncate(time.Second)

	code, err := f.issue(t, t0)
	if err != nil || !regexp.MustCompile(`^\d{6}$`).MatchString(code) {
		t.Fatalf("code %q, %v", code, err)
	}
	var stored string
	if err := f.pool.QueryRow(context.Background(), `SELECT code_hash FROM verification_codes`).Scan(&stored); err != nil || strings.Contains(stored, code) {
		t.Fatalf("stored %q, %v", stored, err)
	}

	_, err = f.issue(t, t0.Add(40*time.Second))
	var soon *TooSoonError
	if !errors.As(err, &soon) || soon.RetryAfter != 20*time.Second {
		t.Fatalf("resend within a minute = %v", err)
	}
	// The code and its mail are one transaction: a refused resend queued
	// nothing, the first code queued one mail.
	var queued int
	if err := f.pool.QueryRow(context.Background(), `SELECT count(*) FROM mail_outbox WHERE kind = 'verification'`).Scan(&queued); err != nil || queued != 1 {
		t.Fatalf("%d verification mails queued (%v)", queued, err)
	}

	// A new code a minute later replaces the first one.
	next, err := f.issue(t, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if next != code {
		if err := f.use(t, code, t0.Add(time.Minute)); !errors.Is(err, ErrCodeInvalid) {
			t.Fatalf("replaced code = %v", err)
		}
	}
	if err := f.use(t, next, t0.Add(time.Minute+CodeTTL)); !errors.Is(err, ErrCodeExpired) {
		t.Fatalf("expired code = %v", err)
	}
	if err := f.use(t, next, t0.Add(2*time.Minute)); err != nil {
		t.Fatalf("right code = %v", err)
	}
	if err := f.use(t, next, t0.Add(2*time.Minute)); !errors.Is(err, ErrCodeInvalid) {
		t.Fatalf("used code again = %v", err)
	}
}

func TestVerificationCodeAttempts(t *testing.T) {
	f := newFixture(t)
	t0 := time.Now().UTC()
	code, err := f.issue(t, t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range MaxCodeAttempts {
		if err := f.use(t, wrong(code), t0); !errors.Is(err, ErrCodeInvalid) {
			t.Fatalf("wrong try %d = %v", i+1, err)
		}
	}
	if err := f.use(t, code, t0); !errors.Is(err, ErrCodeAttempts) {
		t.Fatalf("right code after %d wrong tries = %v", MaxCodeAttempts, err)
	}
	// A new code starts the count again.
	code, err = f.issue(t, t0.Add(ResendInterval))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.use(t, code, t0.Add(ResendInterval)); err != nil {
		t.Fatalf("new code = %v", err)
	}
}

func TestResetTokens(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	t0 := time.Now().UTC()
	issue := func(now time.Time) string {
		t.Helper()
		var token string
		w := f.store.NewResetWorker(func(to, tok string) mail.Message { token = tok; return mail.Message{To: to, Text: tok} }, nil, slog.New(slog.DiscardHandler))
		w.Now = func() time.Time { return now }
		if err := f.store.RequestReset(ctx, "seller@example.com", now); err != nil {
			t.Fatal(err)
		}
		if _, err := w.HandleAll(ctx); err != nil || token == "" {
			t.Fatalf("no token mailed: %v", err)
		}
		return token
	}
	complete := func(token, hash string, now time.Time) error {
		t.Helper()
		tx, err := f.pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = tx.Rollback(ctx) }()
		if err := f.store.CompleteReset(ctx, tx, f.account, token, hash, now); err != nil {
			return err
		}
		return tx.Commit(ctx)
	}

	first := issue(t0.Add(-ResetMailInterval))
	second := issue(t0)
	if _, err := f.store.ResetTokenAccount(ctx, first, t0); !errors.Is(err, ErrResetToken) {
		t.Fatalf("replaced token = %v", err)
	}
	if id, err := f.store.ResetTokenAccount(ctx, second, t0); err != nil || id != f.account {
		t.Fatalf("live token = %q, %v", id, err)
	}
	if _, err := f.store.ResetTokenAccount(ctx, second, t0.Add(ResetTTL)); !errors.Is(err, ErrResetToken) {
		t.Fatalf("expired token = %v", err)
	}
	if err := complete(second, "h", t0.Add(ResetTTL)); !errors.Is(err, ErrResetToken) {
		t.Fatalf("complete with an expired token = %v", err)
	}

	session, err := f.store.CreateSession(ctx, f.pool, f.account, t0)
	if err != nil {
		t.Fatal(err)
	}
	hash, err := f.store.HashPassword(ctx, "New-password!")
	if err != nil {
		t.Fatal(err)
	}
	if err := complete(second, hash, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := complete(second, hash, t0.Add(time.Minute)); !errors.Is(err, ErrResetToken) {
		t.Fatalf("second use = %v", err)
	}
	if _, err := f.store.Session(ctx, session, t0); !errors.Is(err, ErrNoSession) {
		t.Fatalf("session after reset = %v", err)
	}
	if _, _, err := f.store.Authenticate(ctx, "seller@example.com", "New-password!"); err != nil {
		t.Fatalf("sign in with the new password = %v", err)
	}
}
