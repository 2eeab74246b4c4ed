package payments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/catalog"
)

// Auto-recharge at the provider (issue 33 item 2): saving a card with a
// SetupIntent, and the off-session charge of a recharge. The decisions are
// the application layer's (internal/app/command: save_payment_method.go,
// run_recharges.go); these are the provider calls and the operational rows
// they need, with no transaction open during a call.

// metaRecharge names, on a recharge's PaymentIntent, the recharge it pays:
// onPaymentIntent copies it into PaymentRecorded.Recharge.
const metaRecharge = "recharge"

// recharging is what a provider adapter does for auto-recharge (its files:
// stripe_recharge.go, simulated_recharge.go).
type recharging interface {
	// CreateSetupIntent creates a SetupIntent that saves a card of the
	// customer for off-session use.
	CreateSetupIntent(ctx context.Context, r SetupIntentRequest) (SetupCheckout, error)
	// ChargeOffSession charges the saved card for a recharge, confirmed at
	// once with the customer absent.
	ChargeOffSession(ctx context.Context, r OffSessionCharge) (RechargeOutcome, error)
	// PaymentMethodCard is the brand and last digits of a saved card.
	PaymentMethodCard(ctx context.Context, paymentMethodID string) (domain.Card, error)
	// DetachPaymentMethod removes a saved card from its customer.
	DetachPaymentMethod(ctx context.Context, paymentMethodID string) error
	// RechargeClientSecret is the client secret of a recharge's
	// PaymentIntent, for the seller to authenticate it on the payment page.
	RechargeClientSecret(ctx context.Context, paymentIntentID, idempotencyKey string) (string, error)
}

// SetupIntentRequest asks for a SetupIntent of a customer.
type SetupIntentRequest struct {
	AccountID, CustomerID string
	IdempotencyKey        string
}

// SetupCheckout is a SetupIntent waiting for the browser.
type SetupCheckout struct {
	SetupIntentID string `json:"-"`
	ClientSecret  string `json:"clientSecret"`
}

// OffSessionCharge asks for the charge of a recharge.
type OffSessionCharge struct {
	AccountID, CustomerID, PaymentMethodID string
	RechargeID                             string
	Credits, AmountCents                   int64
	IdempotencyKey                         string // derived from the account and the recharge
}

// Recharge outcomes (RechargeOutcome.Status).
const (
	RechargeSucceeded     = "succeeded"
	RechargeDeclined      = "declined"
	RechargeNeedsAction   = "requires_action"
	RechargeProcessing    = "processing"
	RechargeNoCardOnFile  = "no_card"
	rechargeKeyNamespace  = "recharge:"
	setupIntentsKeyPrefix = "setup:"
)

// RechargeOutcome is the provider's answer to a recharge's charge.
type RechargeOutcome struct {
	PaymentIntentID string
	ClientSecret    string `json:"-"`
	Status          string
	Message         string // the decline's words
}

// RechargeKey is the idempotency key of accountID's recharge rechargeID: a
// retry of the same crossing charges once.
func RechargeKey(accountID, rechargeID string) string {
	return rechargeKeyNamespace + accountID + ":" + rechargeID
}

// StartCardSetup makes a SetupIntent for a, a verified seller (the caller
// checked), and remembers it; its client secret goes to the browser.
func (s *Service) StartCardSetup(ctx context.Context, a *domain.Account) (SetupCheckout, error) {
	customerID, err := s.customer(ctx, a)
	if err != nil {
		return SetupCheckout{}, err
	}
	co, err := s.provider.CreateSetupIntent(ctx, SetupIntentRequest{AccountID: a.ID(), CustomerID: customerID,
		IdempotencyKey: setupIntentsKeyPrefix + uuid.NewString()})
	if err != nil {
		return SetupCheckout{}, err
	}
	var hash *string
	if s.provider.simulation() == nil {
		h := secretHash(co.ClientSecret)
		hash = &h
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO setup_intents (setup_intent_id, account_id, client_secret_hash)
		VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, co.SetupIntentID, a.ID(), hash); err != nil {
		return SetupCheckout{}, fmt.Errorf("remember setup intent: %w", err)
	}
	return co, nil
}

// savedCard is accountID's saved payment method id; "" for none.
func (s *Service) savedCard(ctx context.Context, accountID string) (string, error) {
	var id string
	err := s.pool.QueryRow(ctx, `SELECT payment_method_id FROM payment_methods WHERE account_id = $1`, accountID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("find payment method: %w", err)
	}
	return id, nil
}

// RemoveCard detaches accountID's saved card at the provider (no
// transaction open), then deletes its row and records PaymentMethodRemoved
// (and AutoRechargeDisabled when it was on) in one transaction.
func (s *Service) RemoveCard(ctx context.Context, accountID string, md eventstore.Metadata) (eventstore.Result, error) {
	pm, err := s.savedCard(ctx, accountID)
	if err != nil {
		return eventstore.Result{}, err
	}
	if pm != "" {
		if err := s.provider.DetachPaymentMethod(ctx, pm); err != nil {
			return eventstore.Result{}, err
		}
	}
	return s.accounts.Update(ctx, accountID, eventstore.UpdateOptions{Metadata: md},
		func(ctx context.Context, tx pgx.Tx, a *domain.Account, now time.Time) (any, error) {
			if _, err := tx.Exec(ctx, `DELETE FROM payment_methods WHERE account_id = $1`, accountID); err != nil {
				return nil, fmt.Errorf("remove payment method: %w", err)
			}
			a.RemovePaymentMethod(now)
			return nil, nil
		})
}

// ChargeRecharge charges accountID's saved card for recharge rechargeID of
// credits at amountCents, off session, with the recharge's idempotency key,
// and remembers the PaymentIntent as a credit purchase (so refunds and
// disputes find it as a pack's). No transaction is open during the call. A
// provider that did not answer is ErrProviderUnavailable: the caller tries
// again later with the same key.
func (s *Service) ChargeRecharge(ctx context.Context, accountID, rechargeID string, credits, amountCents int64) (RechargeOutcome, error) {
	if !catalog.Charges(credits, amountCents, catalog.Currency) {
		return RechargeOutcome{}, domain.Errorf(domain.CodeInvalid, "The recharge's price is not the catalogue's")
	}
	pm, err := s.savedCard(ctx, accountID)
	if err != nil {
		return RechargeOutcome{}, err
	}
	if pm == "" {
		return RechargeOutcome{Status: RechargeNoCardOnFile, Message: "No card is saved"}, nil
	}
	customerID, err := s.customerOf(ctx, accountID)
	if err != nil {
		return RechargeOutcome{}, err
	}
	out, err := s.provider.ChargeOffSession(ctx, OffSessionCharge{AccountID: accountID, CustomerID: customerID, PaymentMethodID: pm,
		RechargeID: rechargeID, Credits: credits, AmountCents: amountCents, IdempotencyKey: RechargeKey(accountID, rechargeID)})
	if err != nil {
		return RechargeOutcome{}, err
	}
	if out.PaymentIntentID != "" {
		if err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			return s.remember(ctx, tx, accountID, KindCredits, credits, amountCents,
				Checkout{PaymentIntentID: out.PaymentIntentID, ClientSecret: out.ClientSecret})
		}); err != nil {
			return RechargeOutcome{}, err
		}
	}
	return out, nil
}

// SimulateRecharge is what the simulated provider reports of recharge
// rechargeID's charge out, at now: the payment_intent event Stripe would
// send, naming the recharge. ok is false when there is nothing to report
// now (a charge waiting for authentication, or still processing);
// ErrNotSimulated when another provider is active (Stripe reports by its
// webhook).
func (s *Service) SimulateRecharge(ctx context.Context, accountID, rechargeID string, credits int64, out RechargeOutcome, now time.Time) (n Notification, ok bool, err error) {
	if err := s.provider.simulation(); err != nil {
		return Notification{}, false, err
	}
	if (out.Status != RechargeSucceeded && out.Status != RechargeDeclined) || out.PaymentIntentID == "" {
		return Notification{}, false, nil
	}
	customerID, err := s.customerOf(ctx, accountID)
	if err != nil {
		return Notification{}, false, err
	}
	amount, err := catalog.PriceCents(credits)
	if err != nil {
		return Notification{}, false, err
	}
	in := intent{id: out.PaymentIntentID, accountID: accountID, customerID: customerID, kind: KindCredits,
		currency: catalog.Currency, credits: credits, amountCents: amount}
	if n, err = in.paymentIntentEvent(out.Status == RechargeSucceeded, now); err != nil {
		return Notification{}, false, err
	}
	n.Payment.Recharge = rechargeID
	return n, true, nil
}

// RechargeClientSecret is the client secret of accountID's recharge
// rechargeID's PaymentIntent paymentIntentID, waiting for the seller's
// authentication: the payment page confirms it. Asked of the provider each
// time, never stored.
func (s *Service) RechargeClientSecret(ctx context.Context, accountID, rechargeID, paymentIntentID string) (string, error) {
	return s.provider.RechargeClientSecret(ctx, paymentIntentID, RechargeKey(accountID, rechargeID))
}

// SavedCard is a card a confirmed SetupIntent saved for accountID's
// auto-recharge: its payment_methods row, written with PaymentMethodSaved
// (AccountChange.SavesCard), and the SetupIntent marked succeeded.
type SavedCard struct {
	SetupIntentID, PaymentMethodID string
	Card                           domain.Card
}

// savedCardRow is a SavedCard's rows for accountID, written at (accounts.Row).
type savedCardRow struct {
	card      *SavedCard
	accountID string
	at        time.Time
}

// row is c's rows for accountID; nil when there is no card.
func (c *SavedCard) row(accountID string, at time.Time) accounts.Row {
	if c == nil {
		return nil
	}
	return savedCardRow{card: c, accountID: accountID, at: at}
}

func (r savedCardRow) SaveIn(ctx context.Context, tx pgx.Tx) error {
	c, accountID, at := r.card, r.accountID, r.at
	if _, err := tx.Exec(ctx, `INSERT INTO payment_methods (account_id, payment_method_id, brand, last4, updated_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (account_id) DO UPDATE
		SET payment_method_id = EXCLUDED.payment_method_id, brand = EXCLUDED.brand, last4 = EXCLUDED.last4, updated_at = EXCLUDED.updated_at`,
		accountID, c.PaymentMethodID, c.Card.Brand, c.Card.Last4, at); err != nil {
		return fmt.Errorf("save payment method: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE setup_intents SET status = 'succeeded' WHERE setup_intent_id = $1`, c.SetupIntentID); err != nil {
		return fmt.Errorf("settle setup intent: %w", err)
	}
	return nil
}

// PaymentMethodCard is the brand and last digits of a saved card, asked of
// the provider (no transaction open).
func (s *Service) PaymentMethodCard(ctx context.Context, paymentMethodID string) (domain.Card, error) {
	return s.provider.PaymentMethodCard(ctx, paymentMethodID)
}
