// Package pgpool opens connection pools sized for this product. pgxpool's
// default (4 connections on a 2-core machine) is too small: each watermill
// subscriber holds a transaction open while its handler runs on a second
// connection, so a projector alone needs two connections per projection.
package pgpool

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultMaxConns is used unless the URL sets pool_max_conns.
const DefaultMaxConns = 25

// New opens a pool on url.
func New(ctx context.Context, url string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("database URL: %w", err)
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return pool, nil
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
