package main

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/devseed"
	"github.com/a2e-automation/app/internal/pgpool"
)

// freshDatabase makes database bench_<unix> on the server and returns its
// URL and a function that drops it.
func freshDatabase(ctx context.Context, server string) (string, func(), error) {
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		return "", nil, err
	}
	name := fmt.Sprintf("bench_%d", time.Now().UnixNano())
	if _, err := conn.Exec(ctx, `CREATE DATABASE `+name); err != nil {
		_ = conn.Close(ctx)
		return "", nil, err
	}
	url, err := pgpool.WithDatabase(server, name)
	drop := func() {
		_, _ = conn.Exec(context.Background(), `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
		_ = conn.Close(context.Background())
	}
	return url, drop, err
}

func durable(ctx context.Context, pool *pgxpool.Pool) error {
	var fsync, sync string
	if err := pool.QueryRow(ctx, `SELECT current_setting('fsync'), current_setting('synchronous_commit')`).Scan(&fsync, &sync); err != nil {
		return err
	}
	if fsync != "on" || sync != "on" {
		return fmt.Errorf("the server runs with fsync=%s synchronous_commit=%s: figures must come with durability on", fsync, sync)
	}
	return nil
}

// seed makes n sellers with a billion credits each and returns their keys.
func seed(ctx context.Context, pool *pgxpool.Pool, n int) ([]string, error) {
	var out []string
	for i := range n {
		s, err := devseed.New(ctx, pool, devseed.Options{Email: fmt.Sprintf("bench-%d@example.com", i), Credits: 1_000_000_000, Actor: "bench"})
		if err != nil {
			return nil, err
		}
		out = append(out, s.APIKey)
	}
	return out, nil
}
