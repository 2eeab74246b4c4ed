package payments

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stripe/stripe-go/v82"

	"github.com/a2e-automation/app/domain"
)

// The simulated provider's auto-recharge: a SetupIntent confirmed by the
// development route POST /api/dev/payments/confirm with its client secret,
// like the other simulated payments. The outcome picks the card saved, as
// Stripe's test cards do: OutcomeSucceeded saves a card whose charges
// succeed (4242), SetupOutcomeChargeDeclines one whose off-session charges
// are declined (Stripe's 4000 0000 0000 0341), SetupOutcomeNeedsAuth one
// whose off-session charges need 3-D Secure (4000 0027 6000 3184);
// OutcomeFailed saves nothing.
const (
	SetupOutcomeChargeDeclines = "charge_declines"
	SetupOutcomeNeedsAuth      = "requires_authentication"

	simSetupIntent   = "seti_sim_"
	simPaymentMethod = "pm_sim_"
)

// simCards are the simulated cards by setup outcome: the payment method id
// suffix says how its charges end.
var simCards = map[string]domain.Card{
	OutcomeSucceeded:           {Brand: "visa", Last4: "4242"},
	SetupOutcomeChargeDeclines: {Brand: "visa", Last4: "0341"},
	SetupOutcomeNeedsAuth:      {Brand: "visa", Last4: "3184"},
}

// CreateSetupIntent implements Provider: the same objects for the same key.
func (*Simulated) CreateSetupIntent(_ context.Context, r SetupIntentRequest) (SetupCheckout, error) {
	t, secret := simObject(r.IdempotencyKey)
	return SetupCheckout{SetupIntentID: simSetupIntent + t, ClientSecret: strings.Replace(secret, simIntent, simSetupIntent, 1)}, nil
}

// ChargeOffSession implements Provider: the card's kind decides (see
// simCards); the PaymentIntent is derived from the key, so a retry gets
// the same one.
func (*Simulated) ChargeOffSession(_ context.Context, r OffSessionCharge) (RechargeOutcome, error) {
	t, secret := simObject(r.IdempotencyKey)
	out := RechargeOutcome{PaymentIntentID: simIntent + t, ClientSecret: secret, Status: RechargeSucceeded}
	switch {
	case strings.HasSuffix(r.PaymentMethodID, "_"+SetupOutcomeChargeDeclines):
		out.Status, out.Message = RechargeDeclined, DeclineMessage
	case strings.HasSuffix(r.PaymentMethodID, "_"+SetupOutcomeNeedsAuth):
		out.Status, out.Message = RechargeNeedsAction, "This payment requires authentication."
	}
	return out, nil
}

// PaymentMethodCard implements Provider.
func (*Simulated) PaymentMethodCard(_ context.Context, id string) (domain.Card, error) {
	for outcome, c := range simCards {
		if strings.HasSuffix(id, "_"+outcome) {
			return c, nil
		}
	}
	return domain.Card{}, ErrUnknownPayment
}

// DetachPaymentMethod implements Provider: nothing to tell anyone.
func (*Simulated) DetachPaymentMethod(context.Context, string) error { return nil }

// RechargeClientSecret implements Provider: derived from the key again.
func (*Simulated) RechargeClientSecret(_ context.Context, _, key string) (string, error) {
	_, secret := simObject(key)
	return secret, nil
}

// IsSimulatedSetup reports whether clientSecret is a simulated SetupIntent's.
func IsSimulatedSetup(clientSecret string) bool {
	return strings.HasPrefix(clientSecret, simSetupIntent)
}

// SimulatedSetupIntent is a SetupIntent of the simulated provider, found
// by its client secret: what its confirmation is about.
type SimulatedSetupIntent struct {
	AccountID, ID, CustomerID string
	Succeeded                 bool // a card was saved with it already
}

// SimulatedSetup finds accountID's simulated SetupIntent of clientSecret,
// or ErrUnknownPayment (another account's secret included);
// ErrNotSimulated when another provider is active.
func (s *Service) SimulatedSetup(ctx context.Context, accountID, clientSecret string) (SimulatedSetupIntent, error) {
	if err := s.provider.simulation(); err != nil {
		return SimulatedSetupIntent{}, err
	}
	si := SimulatedSetupIntent{AccountID: accountID}
	var status string
	err := s.pool.QueryRow(ctx, `SELECT setup_intent_id, status FROM setup_intents WHERE client_secret_hash = $1 AND account_id = $2`,
		secretHash(clientSecret), accountID).Scan(&si.ID, &status)
	if errors.Is(err, pgx.ErrNoRows) {
		return SimulatedSetupIntent{}, ErrUnknownPayment
	}
	if err != nil {
		return SimulatedSetupIntent{}, fmt.Errorf("find setup intent: %w", err)
	}
	si.Succeeded = status == "succeeded"
	if si.CustomerID, err = s.customerOf(ctx, accountID); err != nil {
		return SimulatedSetupIntent{}, err
	}
	return si, nil
}

// SimulatedSetupOutcomes are the outcomes a simulated SetupIntent's
// confirmation may have (see simCards; OutcomeFailed saves nothing).
var SimulatedSetupOutcomes = []string{OutcomeSucceeded, OutcomeFailed, SetupOutcomeChargeDeclines, SetupOutcomeNeedsAuth}

// FailSimulatedSetup marks si declined: no card is saved.
func (s *Service) FailSimulatedSetup(ctx context.Context, si SimulatedSetupIntent) error {
	if _, err := s.pool.Exec(ctx, `UPDATE setup_intents SET status = 'failed' WHERE setup_intent_id = $1 AND status <> 'succeeded'`, si.ID); err != nil {
		return fmt.Errorf("settle setup intent: %w", err)
	}
	return nil
}

// SimulateSetup is Stripe's setup_intent.succeeded for si confirmed with
// outcome (a simCards key), at now: the card its outcome names attached.
func (s *Service) SimulateSetup(si SimulatedSetupIntent, outcome string, now time.Time) (Notification, error) {
	card, ok := simCards[outcome]
	if !ok {
		return Notification{}, domain.Errorf(domain.CodeInvalid, "The outcome must be %q, %q, %q or %q",
			OutcomeSucceeded, OutcomeFailed, SetupOutcomeChargeDeclines, SetupOutcomeNeedsAuth)
	}
	return simulatedEvent(stripe.EventTypeSetupIntentSucceeded, now, &stripe.SetupIntent{
		ID: si.ID, Object: "setup_intent", Customer: &stripe.Customer{ID: si.CustomerID},
		Status: stripe.SetupIntentStatusSucceeded, Usage: stripe.SetupIntentUsageOffSession,
		Metadata: map[string]string{metaAccountID: si.AccountID},
		PaymentMethod: &stripe.PaymentMethod{ID: simPaymentMethod + simCardToken(si.ID) + "_" + outcome, Object: "payment_method",
			Card: &stripe.PaymentMethodCard{Brand: stripe.PaymentMethodCardBrand(card.Brand), Last4: card.Last4}},
	})
}

// simCardToken names the simulated card a SetupIntent saved.
func simCardToken(setupIntentID string) string {
	sum := sha256.Sum256([]byte("simulated-card:" + setupIntentID))
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:10]))
}
