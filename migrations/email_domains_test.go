package migrations_test

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/testing/testdb"
	"github.com/a2e-automation/app/migrations"
)

// Migration 00014 brings older rows' domains to the ASCII form
// domain.NormalizeEmail stores (issue 25, item 5): its punycode in SQL
// agrees with golang.org/x/net/idna, and an address another account
// already holds in that form is left for support.
func TestMigrationStoresDomainsInASCII(t *testing.T) {
	pool := testdb.New(t)
	ctx := context.Background()
	up := upSection(t, "00014_code_caps_and_email_domains.sql")
	t0 := time.Now().Add(-time.Hour)
	add := func(email string, age time.Duration) string {
		t.Helper()
		id := uuid.NewString()
		if _, err := pool.Exec(ctx, `INSERT INTO users (account_id, email, password_hash, created_at) VALUES ($1, $2, 'x', $3)`,
			id, email, t0.Add(-age)); err != nil {
			t.Fatal(err)
		}
		return id
	}
	moved := map[string]string{} // account id: the address it had
	for _, email := range []string{
		"a@münchen.de", "b@bücher.example", "c@straße.de", "d@例え.テスト", "e@пример.рф", "f@ドメイン名例.jp",
		"g@sub.bücher.example", "h@café.example.com", "i@ελληνικά.gr", "j@mañana.com", "k@ü.example",
		"l@ab-üö-cd.example", "m@bücher。example", "ünïcode@bücher.example",
	} {
		moved[add(email, 0)] = email
	}
	kept := map[string]string{}
	for _, email := range []string{"plain@example.com", "n@xn--mnchen-3ya.de"} {
		kept[add(email, 0)] = email
	}
	// The same mailbox twice: the ASCII form is taken, the Unicode row stays.
	kept[add("v@xn--bcher-kva.example", 2*time.Minute)] = "v@xn--bcher-kva.example"
	kept[add("v@bücher.example", time.Minute)] = "v@bücher.example"

	if _, err := pool.Exec(ctx, up); err != nil {
		t.Fatalf("migration 00014: %v", err)
	}
	email := func(id string) string {
		var e string
		if err := pool.QueryRow(ctx, `SELECT email FROM users WHERE account_id = $1`, id).Scan(&e); err != nil {
			t.Fatal(err)
		}
		return e
	}
	for id, before := range moved {
		want := domain.NormalizeEmail(before)
		if !strings.Contains(want, "@") || want == before {
			t.Fatalf("test case %q: NormalizeEmail = %q", before, want)
		}
		if got := email(id); got != want {
			t.Errorf("%s became %q, want %q (x/net/idna)", before, got, want)
		}
	}
	for id, before := range kept {
		if got := email(id); got != before {
			t.Errorf("%s became %q, want it left as it is", before, got)
		}
	}
}

// upSection is the Up part of a migration file, run as one script.
func upSection(t *testing.T, name string) string {
	t.Helper()
	b, err := fs.ReadFile(migrations.FS, name)
	if err != nil {
		t.Fatal(err)
	}
	up, _, ok := strings.Cut(string(b), "-- +goose Down")
	if !ok {
		t.Fatalf("%s has no Down section", name)
	}
	return up
}
