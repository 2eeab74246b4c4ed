// Package migrations holds the SQL schema as goose migrations and applies them.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"github.com/pressly/goose/v3"
)

// FS holds the migration files.
//
//go:embed *.sql
var FS embed.FS

func provider(db *sql.DB) (*goose.Provider, error) {
	return goose.NewProvider(goose.DialectPostgres, db, FS)
}

// Apply brings the database at databaseURL up to the latest migration.
func Apply(ctx context.Context, databaseURL string) error {
	db, err := sql.Open("pgx", databaseURL)
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer db.Close()
	p, err := provider(db)
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	return nil
}

// Pending reports how many migrations are not applied yet (readiness check).
func Pending(ctx context.Context, databaseURL string) (int, error) {
	db, err := sql.Open("pgx", databaseURL)
	if err != nil {
		return 0, fmt.Errorf("open database: %w", err)
	}
	defer db.Close()
	p, err := provider(db)
	if err != nil {
		return 0, fmt.Errorf("load migrations: %w", err)
	}
	status, err := p.Status(ctx)
	if err != nil {
		return 0, fmt.Errorf("migration status: %w", err)
	}
	n := 0
	for _, s := range status {
		if s.State == goose.StatePending {
			n++
		}
	}
	return n, nil
}
