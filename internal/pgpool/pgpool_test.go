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
