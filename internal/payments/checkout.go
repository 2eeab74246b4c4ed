package payments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
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

// SubscriptionCheckout starts the monthly plan for a, a verified seller
// with no subscription running (the caller checked: command.StartSubscription):
// its customer (created once per account), then a subscription whose first
// invoice the browser pays with the returned client secret. Nothing is
// granted until the provider reports the invoice paid. One checkout runs at
// a time per account, end to end (see checkout): a second one waits for it
// and answers its client secret, as does every later one while that first
// invoice is unpaid, within reuseReservation; after that, a new checkout
// voids the unpaid one first, so two can never both be paid. No
// transaction is open while the provider is called.
func (s *Service) SubscriptionCheckout(ctx context.Context, a *domain.Account) (Checkout, error) {
	accountID := a.ID()
	customerID, err := s.customer(ctx, a)
	if err != nil {
		return Checkout{}, err
	}
	plan := catalog.MonthlyPlan()
	return s.checkout(ctx, accountID, order{
		action: actionSubscription, target: fmt.Sprintf("%s:%s:%d", s.provider.Name(), plan.Name, plan.PriceCents),
		prepare: func(ctx context.Context) error { return s.voidIncomplete(ctx, accountID) },
		create: func(ctx context.Context, key string) (Checkout, error) {
			return s.provider.CreateSubscription(ctx, SubscriptionRequest{AccountID: accountID, CustomerID: customerID, IdempotencyKey: key})
		},
		record: func(ctx context.Context, tx pgx.Tx, co Checkout) error {
			return s.remember(ctx, tx, accountID, KindSubscription, plan.Credits, plan.PriceCents, co)
		},
	})
}

// CreditsCheckout starts the purchase of credits for a, a verified seller,
// at amountCents, the catalogue's price (the caller priced them:
// command.PurchaseCredits). The credits are granted when the provider
// reports the PaymentIntent succeeded. The account's open PaymentIntent for
// the same credits, made within reuseReservation and still unpaid, is
// answered again rather than a new one made; concurrent attempts share one
// (see checkout). No transaction is open while the provider is called.
func (s *Service) CreditsCheckout(ctx context.Context, a *domain.Account, credits, amountCents int64) (Purchase, error) {
	accountID := a.ID()
	customerID, err := s.customer(ctx, a)
	if err != nil {
		return Purchase{}, err
	}
	co, err := s.checkout(ctx, accountID, order{
		action: actionCredits, credits: credits, target: strconv.FormatInt(amountCents, 10),
		create: func(ctx context.Context, key string) (Checkout, error) {
			return s.provider.CreatePaymentIntent(ctx, PaymentIntentRequest{
				AccountID: accountID, CustomerID: customerID, Credits: credits, AmountCents: amountCents, IdempotencyKey: key,
			})
		},
		record: func(ctx context.Context, tx pgx.Tx, co Checkout) error {
			return s.remember(ctx, tx, accountID, KindCredits, credits, amountCents, co)
		},
	})
	if err != nil {
		return Purchase{}, err
	}
	return Purchase{Checkout: co, Credits: credits, AmountCents: amountCents}, nil
}

// CancelAtProvider asks the provider to cancel subscriptionID of
// accountID: at the end of its period, or at once (now: a past due one).
// ResumeAtProvider undoes a pending cancellation there. Each reserves the
// call, makes it with no transaction open and settles the reservation; the
// ledger is the caller's (command.CancelSubscription, ResumeSubscription).
// A call that got no answer stays reserved, and the next attempt reuses its
// key.
func (s *Service) CancelAtProvider(ctx context.Context, accountID, subscriptionID string, now bool) error {
	if now {
		return s.askProvider(ctx, accountID, subscriptionID, actionCancelNow, s.provider.CancelNow)
	}
	return s.askProvider(ctx, accountID, subscriptionID, actionCancel, s.provider.CancelAtPeriodEnd)
}

// ResumeAtProvider: see CancelAtProvider.
func (s *Service) ResumeAtProvider(ctx context.Context, accountID, subscriptionID string) error {
	return s.askProvider(ctx, accountID, subscriptionID, actionResume, s.provider.Resume)
}

// askProvider reserves action on subscriptionID, calls the provider with no
// transaction open and settles the reservation with its answer.
func (s *Service) askProvider(ctx context.Context, accountID, subscriptionID, action string,
	call func(ctx context.Context, subscriptionID, key string) error) error {
	key, err := s.reserve(ctx, accountID, action, 0, subscriptionID)
	if err != nil {
		return err
	}
	if err := call(ctx, subscriptionID, key); err != nil {
		return s.refused(ctx, key, fmt.Errorf("%s subscription %s: %w", action, subscriptionID, err))
	}
	// The provider's answer ends the reservation at once, in its own short
	// transaction: a later attempt of the same action must ask afresh, not
	// reuse this key and get this (possibly outdated) answer back.
	return s.settle(ctx, key, func(pgx.Tx) error { return nil })
}

// Actions reserved in provider_requests.
const (
	actionSubscription = "subscription"
	actionCredits      = "credits"
	actionCancel       = "cancel"
	actionCancelNow    = "cancel_now"
	actionResume       = "resume"
	actionVoid         = "void"
)

// reuseReservation is how long an unanswered reservation's key is reused by
// the same action: well inside the 24 hours Stripe keeps idempotency keys.
const reuseReservation = time.Hour

// reserve records that accountID is about to ask the provider for action
// about target (the plan and provider, the amount, or the subscription),
// with credits for a purchase, and returns the idempotency key the call
// must carry: the key of an earlier reservation of the same action and
// target that got no answer, so a retry gets the object that call may have
// made (with the same parameters, as Stripe requires), or a new one. An
// account's reservations are decided one at a time (an advisory lock), so a
// double click shares one key.
func (s *Service) reserve(ctx context.Context, accountID, action string, credits int64, target string) (string, error) {
	now := time.Now()
	var key string
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('provider_requests:' || $1, 0))`, accountID); err != nil {
			return fmt.Errorf("lock reservations: %w", err)
		}
		err := tx.QueryRow(ctx, `SELECT idempotency_key FROM provider_requests
			WHERE account_id = $1 AND action = $2 AND credits = $3 AND target = $4 AND status = 'reserved' AND created_at > $5
			ORDER BY created_at DESC LIMIT 1`, accountID, action, credits, target, now.Add(-reuseReservation)).Scan(&key)
		if err == nil || !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		key = action + ":" + uuid.NewString()
		if _, err := tx.Exec(ctx, `INSERT INTO provider_requests (idempotency_key, account_id, action, credits, target, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, key, accountID, action, credits, target, now); err != nil {
			return fmt.Errorf("reserve %s: %w", action, err)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("reservation: %w", err)
	}
	return key, nil
}

// settle records the provider's answer to the reservation key with record,
// in one short transaction.
func (s *Service) settle(ctx context.Context, key string, record func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := markDone(ctx, tx, key, time.Now()); err != nil {
			return err
		}
		return record(tx)
	})
}

func markDone(ctx context.Context, tx pgx.Tx, key string, now time.Time) error {
	if _, err := tx.Exec(ctx, `UPDATE provider_requests SET status = 'done', settled_at = $2 WHERE idempotency_key = $1`, key, now); err != nil {
		return fmt.Errorf("settle %s: %w", key, err)
	}
	return nil
}

// refused settles the reservation key after the provider's failure err.
// A call that got no answer stays reserved, for the next attempt to reuse
// its key; a refusal (the provider answered no) ends the reservation, so
// the next attempt asks afresh.
func (s *Service) refused(ctx context.Context, key string, err error) error {
	if domain.ErrorCode(err) == domain.CodeUnavailable && !errors.Is(err, errKeyMismatch) {
		s.release(ctx, key) // a checkout's next attempt takes the key over at once
		return err
	}
	if _, dbErr := s.pool.Exec(ctx, `UPDATE provider_requests SET status = 'refused', settled_at = $2 WHERE idempotency_key = $1`,
		key, time.Now()); dbErr != nil {
		s.log.WarnContext(ctx, "settle refused provider request", "key", key, "err", dbErr)
	}
	return err
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
func (s *Service) remember(ctx context.Context, tx pgx.Tx, accountID, kind string, credits, amountCents int64, co Checkout) error {
	var subscriptionID, invoiceID, hash *string
	if kind == KindSubscription {
		subscriptionID, invoiceID = &co.SubscriptionID, &co.InvoiceID
	}
	if s.provider.simulation() == nil { // this server confirms its checkouts
		h := secretHash(co.ClientSecret)
		hash = &h
	}
	// Two attempts that shared a reservation get the same object back: it
	// is remembered once.
	_, err := tx.Exec(ctx, `INSERT INTO payment_intents
		(intent_id, account_id, kind, credits, amount_cents, currency, subscription_id, invoice_id, client_secret_hash)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (intent_id) DO NOTHING`,
		co.PaymentIntentID, accountID, kind, credits, amountCents, catalog.Currency, subscriptionID, invoiceID, hash)
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
