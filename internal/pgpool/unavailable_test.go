package pgpool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestUnavailable(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"admin shutdown", &pgconn.PgError{Code: "57P01"}, true},
		{"connection exception", fmt.Errorf("load: %w", &pgconn.PgError{Code: "08006"}), true},
		{"too many connections", &pgconn.PgError{Code: "53300"}, true},
		{"statement timeout", &pgconn.PgError{Code: "57014"}, true},
		{"disk full", fmt.Errorf("append: %w", &pgconn.PgError{Code: "53100"}), true},
		{"out of memory", &pgconn.PgError{Code: "53200"}, true},
		{"crash shutdown", &pgconn.PgError{Code: "57P02"}, true},
		{"cannot connect now", &pgconn.PgError{Code: "57P03"}, true},
		{"database refusing connections (server's code)", fmt.Errorf("look up api key: %w", &pgconn.PgError{Code: "55000"}), true},
		{"read-only transaction", &pgconn.PgError{Code: "25006"}, true},
		{"check violation", &pgconn.PgError{Code: "23514"}, false},
		{"serialization failure", &pgconn.PgError{Code: "40001"}, false},
		{"unique violation", &pgconn.PgError{Code: "23505"}, false},
		{"deadline", fmt.Errorf("query: %w", context.DeadlineExceeded), true},
		{"connection cut", io.ErrUnexpectedEOF, true},
		{"a bug", errors.New("nil map"), false},
	} {
		if got := Unavailable(tc.err); got != tc.want {
			t.Errorf("%s: Unavailable = %v, want %v", tc.name, got, tc.want)
		}
	}
}
