// Package pgpool opens connection pools sized for this product. pgxpool's
// default (4 connections on a 2-core machine) is too small: each watermill
// subscriber holds a transaction open while its handler runs on a second
// connection, so a projector alone needs two connections per projection.
package pgpool

import (
	"context"
	"fmt"
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
