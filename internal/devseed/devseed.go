// Package devseed makes sellers for a bin/api run in development (trying
// the SDKs, their conformance cases, make bench-load): an account
// registered in the ledger, with promotional credits, optionally frozen by
// a payment dispute. Its API key is made with the development secret, so
// only a bin/api in development accepts it.
package devseed

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/config"
)

// Options describe a seller.
type Options struct {
	Email   string // empty: a fresh one
	Credits int64  // promotional credits granted
	Frozen  bool   // a payment dispute is open, so spending answers 403
	// DailyLimit, when set, is a daily spend limit (the email is verified
	// first, as the limits require): spending past it answers 402
	// spend_limit_reached.
	DailyLimit *int64
	Actor      string // the events' metadata actor; empty: "seed"
	// TestKey: Seller.APIKey is a test-mode key (a2e_test_, issue 34),
	// which spends from the account's sandbox, not its credits.
	TestKey bool
}

// Seller is a seller made by New.
type Seller struct {
	AccountID string
	Email     string
	APIKey    string
}

// New registers a seller on pool's (migrated) database.
func New(ctx context.Context, pool *pgxpool.Pool, o Options) (Seller, error) {
	if o.Email == "" {
		o.Email = fmt.Sprintf("seed-%d@example.com", time.Now().UnixNano())
	}
	keys, err := apikeys.New(config.DevelopmentSecret)
	if err != nil {
		return Seller{}, err
	}
	if o.Actor == "" {
		o.Actor = "seed"
	}
	md := eventstore.Metadata{Actor: o.Actor}
	repo := accounts.NewRepository(eventstore.New(pool), nil)
	s, err := repo.Register(ctx, keys, o.Email, "no-password", md)
	if err != nil {
		return Seller{}, err
	}
	plainKey := s.APIKey
	_, err = repo.Change(ctx, s.AccountID, eventstore.UpdateOptions{Metadata: md},
		func(ctx context.Context, w accounts.Work, a *domain.Account, now time.Time) (any, error) {
			if o.TestKey {
				plain, material, err := keys.GenerateMode(domain.KeyModeTest)
				if err != nil {
					return nil, err
				}
				if err := a.CreateAPIKey(material, "Test", domain.KeyModeTest, nil, now); err != nil {
					return nil, err
				}
				if err := w.ApplyKeyEvents(ctx, s.AccountID, a.Changes(), now); err != nil {
					return nil, err
				}
				plainKey = plain
			}
			if o.Credits > 0 {
				if err := a.GrantCredits(domain.CreditsGranted{Amount: o.Credits, Source: domain.SourcePromo}, now); err != nil {
					return nil, err
				}
			}
			if o.DailyLimit != nil {
				if err := a.VerifyEmail(now); err != nil {
					return nil, err
				}
				if err := a.SetSpendLimits(o.DailyLimit, nil, now); err != nil {
					return nil, err
				}
			}
			if o.Frozen {
				pay := "pi_seed_" + s.AccountID
				if err := a.RecordPayment(domain.PaymentRecorded{PaymentID: pay, Kind: domain.PaymentKindCredits,
					Description: "100 credits", AmountCents: 999, Status: domain.PaymentPaid}, now); err != nil {
					return nil, err
				}
				return nil, a.OpenDispute("dp_seed_"+s.AccountID, pay, 999, now)
			}
			return nil, nil
		})
	if err != nil {
		return Seller{}, err
	}
	return Seller{AccountID: s.AccountID, Email: o.Email, APIKey: plainKey}, nil
}
