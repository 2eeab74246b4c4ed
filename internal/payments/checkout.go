package payments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/catalog"
)

// ErrAlreadySubscribed refuses a second subscription while one is running.
var ErrAlreadySubscribed = domain.Errorf(domain.CodeConflict, "You already have an active subscription")

// Purchase is a credit purchase waiting for its payment.
type Purchase struct {
	Checkout
	Credits     int64
	AmountCents int64
}

// CreateSubscription starts the monthly plan for accountID: its customer
// (created once per account), then a subscription whose first invoice the
// browser pays with the returned client secret. Nothing is granted until
// the provider reports the invoice paid.
func (s *Service) CreateSubscription(ctx context.Context, accountID string) (Checkout, error) {
	a, err := s.accounts.Load(ctx, accountID)
	if err != nil {
		return Checkout{}, err
	}
	if running(a) {
		return Checkout{}, ErrAlreadySubscribed
	}
	customerID, err := s.customer(ctx, a)
	if err != nil {
		return Checkout{}, err
	}
	co, err := s.provider.CreateSubscription(ctx, SubscriptionRequest{AccountID: accountID, CustomerID: customerID})
	if err != nil {
		return Checkout{}, fmt.Errorf("create subscription: %w", err)
	}
	plan := catalog.MonthlyPlan()
	if err := s.remember(ctx, accountID, KindSubscription, plan.Credits, plan.PriceCents, co); err != nil {
		return Checkout{}, err
	}
	return co, nil
}

// running reports whether a's subscription is active or past due: one that
// renews.
func running(a *domain.Account) bool {
	s := a.SubscriptionStatus()
	return s == domain.StatusActive || s == domain.StatusPastDue
}

// PurchaseCredits starts the purchase of credits for accountID at the
// catalogue's price. The credits are granted when the provider reports the
// PaymentIntent succeeded.
func (s *Service) PurchaseCredits(ctx context.Context, accountID string, credits int64) (Purchase, error) {
	amount, err := catalog.PriceCents(credits)
	if err != nil {
		return Purchase{}, err
	}
	a, err := s.accounts.Load(ctx, accountID)
	if err != nil {
		return Purchase{}, err
	}
	customerID, err := s.customer(ctx, a)
	if err != nil {
		return Purchase{}, err
	}
	co, err := s.provider.CreatePaymentIntent(ctx, PaymentIntentRequest{
		AccountID: accountID, CustomerID: customerID, Credits: credits, AmountCents: amount,
	})
	if err != nil {
		return Purchase{}, fmt.Errorf("create payment intent: %w", err)
	}
	if err := s.remember(ctx, accountID, KindCredits, credits, amount, co); err != nil {
		return Purchase{}, err
	}
	return Purchase{Checkout: co, Credits: credits, AmountCents: amount}, nil
}

// CancelSubscription cancels the account's subscription at the end of its
// period, at the provider and in the ledger, in one command: the status
// shows cancelled at once, and the cycle's monthly credits stay usable until
// they expire. The provider's later "subscription updated" event finds the
// cancellation already recorded.
func (s *Service) CancelSubscription(ctx context.Context, accountID string, md eventstore.Metadata) (eventstore.Result, error) {
	return s.accounts.Update(ctx, accountID, eventstore.UpdateOptions{Metadata: md},
		func(ctx context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
			subscriptionID := a.SubscriptionID()
			if err := a.CancelSubscription(now); err != nil {
				return nil, err
			}
			if err := s.provider.CancelAtPeriodEnd(ctx, subscriptionID); err != nil {
				return nil, fmt.Errorf("cancel subscription %s: %w", subscriptionID, err)
			}
			return nil, nil
		})
}

// customer returns the provider's customer of a, creating it on first use.
// Two concurrent first uses keep one: the provider call carries an
// idempotency key, and the table keeps the first row.
func (s *Service) customer(ctx context.Context, a *domain.Account) (string, error) {
	id, err := s.customerOf(ctx, a.ID())
	if err == nil || !errors.Is(err, pgx.ErrNoRows) {
		return id, err
	}
	created, err := s.provider.CreateCustomer(ctx, CustomerRequest{AccountID: a.ID(), Email: a.Email()})
	if err != nil {
		return "", fmt.Errorf("create customer: %w", err)
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO stripe_customers (account_id, customer_id) VALUES ($1, $2)
		ON CONFLICT (account_id) DO NOTHING`, a.ID(), created); err != nil {
		return "", fmt.Errorf("save customer: %w", err)
	}
	// A separate statement, so that it sees a row a concurrent first use
	// committed while the insert waited for it.
	return s.customerOf(ctx, a.ID())
}

// customerOf is the saved customer of accountID; an error matching
// pgx.ErrNoRows when there is none yet.
func (s *Service) customerOf(ctx context.Context, accountID string) (string, error) {
	var id string
	if err := s.pool.QueryRow(ctx, `SELECT customer_id FROM stripe_customers WHERE account_id = $1`, accountID).Scan(&id); err != nil {
		return "", fmt.Errorf("find customer of %s: %w", accountID, err)
	}
	return id, nil
}

// remember records a checkout in payment_intents. Only the simulated
// provider's client secrets are kept (hashed): its confirmation finds the
// payment by them, where Stripe's are confirmed by Stripe.js.
func (s *Service) remember(ctx context.Context, accountID, kind string, credits, amountCents int64, co Checkout) error {
	var subscriptionID, invoiceID, hash *string
	if kind == KindSubscription {
		subscriptionID, invoiceID = &co.SubscriptionID, &co.InvoiceID
	}
	if s.provider.Name() == ProviderSimulated {
		h := secretHash(co.ClientSecret)
		hash = &h
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO payment_intents
		(intent_id, account_id, kind, credits, amount_cents, currency, subscription_id, invoice_id, client_secret_hash)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		co.PaymentIntentID, accountID, kind, credits, amountCents, Currency, subscriptionID, invoiceID, hash)
	if err != nil {
		return fmt.Errorf("remember payment intent %s: %w", co.PaymentIntentID, err)
	}
	return nil
}

// secretHash is how a client secret is stored: its SHA-256.
func secretHash(clientSecret string) string {
	sum := sha256.Sum256([]byte(clientSecret))
	return hex.EncodeToString(sum[:])
}
