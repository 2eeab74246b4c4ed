package pgpool

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/puddle/v2"
)

// codeReadOnly is read_only_sql_transaction: a write on a connection to a
// server in recovery, such as the old primary after a failover.
const codeReadOnly = "25006"

// Unavailable reports whether err means the database cannot be used now
// (a restart, a frozen, overloaded or full server, one refusing
// connections or writes, the request's deadline), as opposed to a refusal
// or a bug: the same call may succeed in a few seconds, and nothing was
// done. A connection refused by the server (a ConnectError wrapping its
// PgError) is judged by the server's SQLSTATE like any other.
func Unavailable(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case strings.HasPrefix(pgErr.Code, "08"), // connection exception
			strings.HasPrefix(pgErr.Code, "53"),                                 // insufficient resources: disk full (53100), out of memory, too many connections
			pgErr.Code == "55000",                                               // object not in prerequisite state: database not accepting connections (ALLOW_CONNECTIONS false)
			pgErr.Code == "57P01", pgErr.Code == "57P02", pgErr.Code == "57P03", // shutdown, crash, cannot connect now
			pgErr.Code == codeReadOnly, // read-only transaction: a standby, a demoted primary (issue 32), a read-only database
			pgErr.Code == "57014":      // statement timeout or cancel
			return true
		}
		return false
	}
	var connErr *pgconn.ConnectError
	var netErr net.Error
	return errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err) || pgconn.SafeToRetry(err) ||
		errors.As(err, &connErr) || errors.As(err, &netErr) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, puddle.ErrClosedPool)
}
