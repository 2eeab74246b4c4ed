// Package migrations holds the SQL schema as goose migrations and applies them.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/a2e-automation/app/internal/pgpool"
)

// FS holds the migration files.
//
//go:embed *.sql
var FS embed.FS

// provider reads the migrations. Applying them takes a PostgreSQL session
// advisory lock (goose's locker), so processes that start together (an API
// and a projector) apply each migration once, one after the other.
func provider(db *sql.DB) (*goose.Provider, error) {
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return nil, err
	}
	return goose.NewProvider(goose.DialectPostgres, db, FS, goose.WithSessionLocker(locker))
}

// open connects to databaseURL for migrations: pgxpool's pool_* settings,
// which the server would refuse, are left out.
func open(databaseURL string) (*sql.DB, error) {
	db, err := sql.Open("pgx", pgpool.WithoutPoolParams(databaseURL))
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	return db, nil
}

// Apply brings the database at databaseURL up to the latest migration.
func Apply(ctx context.Context, databaseURL string) error {
	db, err := open(databaseURL)
	if err != nil {
		return err
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
	db, err := open(databaseURL)
	if err != nil {
		return 0, err
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
