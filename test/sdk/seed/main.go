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
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/migrations"
)

func main() {
	db := flag.String("db", "", "PostgreSQL URL of the database (required)")
	email := flag.String("email", "", "the seller's email (default a fresh one)")
	credits := flag.Int64("credits", 0, "promotional credits to grant")
	frozen := flag.Bool("frozen", false, "open a payment dispute, freezing spending")
	flag.Parse()
	if *db == "" {
		fmt.Fprintln(os.Stderr, "seed: -db is required")
		os.Exit(2)
	}
	if *email == "" {
		*email = fmt.Sprintf("seed-%d@example.com", time.Now().UnixNano())
	}
	key, err := seed(context.Background(), *db, *email, *credits, *frozen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "seed:", err)
		os.Exit(1)
	}
	fmt.Println(key)
}

func seed(ctx context.Context, db, email string, credits int64, frozen bool) (string, error) {
	if err := migrations.Apply(ctx, db); err != nil {
		return "", err
	}
	pool, err := pgxpool.New(ctx, db)
	if err != nil {
		return "", err
	}
	defer pool.Close()
	keys, err := apikeys.New(config.DevelopmentSecret)
	if err != nil {
		return "", err
	}
	md := eventstore.Metadata{Actor: "seed"}
	repo := accounts.NewRepository(eventstore.New(pool), nil)
	s, err := repo.Register(ctx, keys, email, "no-password", md)
	if err != nil {
		return "", err
	}
	_, err = repo.Update(ctx, s.AccountID, eventstore.UpdateOptions{Metadata: md},
		func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
			if credits > 0 {
				if err := a.GrantCredits(domain.CreditsGranted{Amount: credits, Source: domain.SourcePromo}, now); err != nil {
					return nil, err
				}
			}
			if frozen {
				pay := "pi_seed_" + s.AccountID
				if err := a.RecordPayment(domain.PaymentRecorded{PaymentID: pay, Kind: domain.PaymentKindCredits,
					Description: "100 credits", AmountCents: 999, Status: domain.PaymentPaid}, now); err != nil {
					return nil, err
				}
				return nil, a.OpenDispute("dp_seed_"+s.AccountID, pay, 999, now)
			}
			return nil, nil
		})
	return s.APIKey, err
}
