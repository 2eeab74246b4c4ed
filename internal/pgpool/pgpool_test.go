package pgpool

import (
	"strings"
	"testing"
)

func TestWithDatabase(t *testing.T) {
	got, err := WithDatabase("postgres://u:p@h:5/admin?sslmode=disable", "t_1_ab")
	if err != nil || got != "postgres://u:p@h:5/t_1_ab?sslmode=disable" {
		t.Fatalf("WithDatabase = %q, %v", got, err)
	}
	if _, err := WithDatabase("host=h dbname=x", "y"); err == nil {
		t.Fatal("WithDatabase accepted a keyword/value DSN")
	}
}

func TestRedact(t *testing.T) {
	if got := Redact("postgres://u:secret@h:5/db"); strings.Contains(got, "secret") || !strings.Contains(got, "u:") {
		t.Fatalf("Redact = %q", got)
	}
}

func TestWithoutPoolParams(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:p@h:5/db?pool_max_conns=5&sslmode=disable": "postgres://u:p@h:5/db?sslmode=disable",
		"postgres://h/db?pool_max_conns=5&pool_min_conns=1":      "postgres://h/db",
		"postgres://h/db":                   "postgres://h/db",
		"host=h pool_max_conns=5 dbname=db": "host=h dbname=db",
	} {
		if got := WithoutPoolParams(in); got != want {
			t.Errorf("WithoutPoolParams(%q) = %q, want %q", in, got, want)
		}
	}
}
