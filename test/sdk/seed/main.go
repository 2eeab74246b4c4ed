// Command seed makes a seller on a development database and prints its API
// key, for trying an SDK against a real bin/api run in development:
//
//	url=$(go run ./cmd/devdb -create sdk_try)
//	go run ./test/sdk/seed -db "$url" -credits 5 [-email try@example.com] [-frozen]
//	APP_ENV=development DATABASE_URL="$url" PORT=18080 METRICS_ADDR=off ./bin/api
//
// The database is migrated first. The key is made with the development
// secret, so only a bin/api in development accepts it. -frozen opens a
// payment dispute on a recorded payment, which pauses spending (403).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/devseed"
	"github.com/a2e-automation/app/migrations"
)

func main() {
	db := flag.String("db", "", "PostgreSQL URL of the database (required)")
	var o devseed.Options
	flag.StringVar(&o.Email, "email", "", "the seller's email (default a fresh one)")
	flag.Int64Var(&o.Credits, "credits", 0, "promotional credits to grant")
	flag.BoolVar(&o.Frozen, "frozen", false, "open a payment dispute, freezing spending")
	flag.Parse()
	if *db == "" {
		fmt.Fprintln(os.Stderr, "seed: -db is required")
		os.Exit(2)
	}
	key, err := seed(context.Background(), *db, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "seed:", err)
		os.Exit(1)
	}
	fmt.Println(key)
}

func seed(ctx context.Context, db string, o devseed.Options) (string, error) {
	if err := migrations.Apply(ctx, db); err != nil {
		return "", err
	}
	pool, err := pgxpool.New(ctx, db)
	if err != nil {
		return "", err
	}
	defer pool.Close()
	s, err := devseed.New(ctx, pool, o)
	return s.APIKey, err
}
