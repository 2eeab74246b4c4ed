// Package pgpool opens connection pools sized for this product's
// connection budget (README, "Running several processes"): each process
// kind has a default size that `pool_max_conns` in the URL overrides.
// pgxpool's own default (4 on a 2-core machine) is too small for a
// projector, whose watermill subscribers each hold a transaction open while
// their handler runs on a second connection.
package pgpool

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Default pool sizes per process kind, unless the URL sets pool_max_conns.
const (
	APIMaxConns       = 10 // bin/api: short request transactions, the reset worker, the mail sender
	ProjectorMaxConns = 8  // bin/projector, or added to the API's by -with-projector
	TestMaxConns      = 25 // tests
)

// Options shape a pool.
type Options struct {
	// MaxConns is the size unless the URL sets pool_max_conns.
	MaxConns int32
	// StatementTimeout bounds every statement on the pool's connections
	// (PostgreSQL's statement_timeout); 0 leaves the server's.
	StatementTimeout time.Duration
	// IdleInTransactionTimeout ends a session that sits in an open
	// transaction that long; 0 leaves the server's.
	IdleInTransactionTimeout time.Duration
	// AppName is application_name, shown in pg_stat_activity.
	AppName string
}

// New opens a pool on url.
func New(ctx context.Context, url string, o Options) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("database URL: %w", err)
	}
	if !strings.Contains(url, "pool_max_conns") && o.MaxConns > 0 {
		cfg.MaxConns = o.MaxConns
	}
	rp := cfg.ConnConfig.RuntimeParams
	if o.StatementTimeout > 0 {
		rp["statement_timeout"] = strconv.FormatInt(o.StatementTimeout.Milliseconds(), 10)
	}
	if o.IdleInTransactionTimeout > 0 {
		rp["idle_in_transaction_session_timeout"] = strconv.FormatInt(o.IdleInTransactionTimeout.Milliseconds(), 10)
	}
	if o.AppName != "" && rp["application_name"] == "" {
		rp["application_name"] = o.AppName
	}
	dropReadOnly(cfg.ConnConfig)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return pool, nil
}

// dropReadOnly makes a connection that is refused a write because its server
// is read-only (SQLSTATE 25006: a standby, a primary demoted by a failover)
// close itself, so the pool drops it instead of handing it out again; the
// next connection follows target_session_attrs to the new primary. Only a
// standby can be read-only here: the product never sets transaction_read_only
// on a pool connection, nor on the database or role.
func dropReadOnly(cfg *pgx.ConnConfig) {
	next := cfg.OnPgError
	cfg.OnPgError = func(c *pgconn.PgConn, e *pgconn.PgError) bool {
		if e.Code == codeReadOnly {
			return false
		}
		if next == nil {
			return e.Severity != "FATAL"
		}
		return next(c, e)
	}
}

// WithoutPoolParams returns the database URL u without pgxpool's own
// pool_* settings, for a plain connection (migrations, readiness): the
// server would refuse them as unknown parameters.
func WithoutPoolParams(u string) string {
	parsed, err := url.Parse(u)
	if err != nil || (parsed.Scheme != "postgres" && parsed.Scheme != "postgresql") {
		var kept []string // a keyword/value DSN
		for _, f := range strings.Fields(u) {
			if !strings.HasPrefix(f, "pool_") {
				kept = append(kept, f)
			}
		}
		return strings.Join(kept, " ")
	}
	q := parsed.Query()
	for k := range q {
		if strings.HasPrefix(k, "pool_") {
			q.Del(k)
		}
	}
	parsed.RawQuery = q.Encode()
	return parsed.String()
}

// WithDatabase returns the postgres:// URL u pointing at database name.
func WithDatabase(u, name string) (string, error) {
	parsed, err := url.Parse(u)
	if err != nil || (parsed.Scheme != "postgres" && parsed.Scheme != "postgresql") {
		return "", fmt.Errorf("want a postgres:// URL, got %q", Redact(u))
	}
	parsed.Path = "/" + name
	parsed.RawPath = ""
	return parsed.String(), nil
}

// Redact hides the password of a database URL, for messages and logs.
func Redact(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		return "(unparsable URL)"
	}
	return parsed.Redacted()
}
