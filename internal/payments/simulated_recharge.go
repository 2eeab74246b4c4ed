package payments

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
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
		out.Status, out.Message = RechargeDeclined, declineMessage
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

// ConfirmSimulatedSetup confirms accountID's simulated SetupIntent of
// clientSecret with outcome (see simCards; OutcomeFailed saves nothing) and
// saves its card as Stripe's setup_intent.succeeded would.
func (s *Service) ConfirmSimulatedSetup(ctx context.Context, accountID, clientSecret, outcome string, md eventstore.Metadata) (Simulation, error) {
	if err := s.provider.simulation(); err != nil {
		return Simulation{}, err
	}
	card, ok := simCards[outcome]
	if !ok && outcome != OutcomeFailed {
		return Simulation{}, domain.Errorf(domain.CodeInvalid, "The outcome must be %q, %q, %q or %q",
			OutcomeSucceeded, OutcomeFailed, SetupOutcomeChargeDeclines, SetupOutcomeNeedsAuth)
	}
	var id, status string
	err := s.pool.QueryRow(ctx, `SELECT setup_intent_id, status FROM setup_intents WHERE client_secret_hash = $1 AND account_id = $2`,
		secretHash(clientSecret), accountID).Scan(&id, &status)
	if errors.Is(err, pgx.ErrNoRows) {
		return Simulation{}, ErrUnknownPayment
	}
	if err != nil {
		return Simulation{}, fmt.Errorf("find setup intent: %w", err)
	}
	if status == "succeeded" {
		return Simulation{}, ErrAlreadyConfirmed
	}
	if outcome == OutcomeFailed {
		if _, err := s.pool.Exec(ctx, `UPDATE setup_intents SET status = 'failed' WHERE setup_intent_id = $1`, id); err != nil {
			return Simulation{}, fmt.Errorf("settle setup intent: %w", err)
		}
		return Simulation{Status: OutcomeFailed, Message: declineMessage}, nil
	}
	md.Actor = "simulated-provider"
	res, err := s.SaveCard(ctx, accountID, id, simPaymentMethod+simCardToken(id)+"_"+outcome, card, md)
	if err != nil {
		return Simulation{}, err
	}
	return Simulation{Status: OutcomeSucceeded, Message: "Card saved", Outcome: Outcome{AccountID: accountID, Result: res}}, nil
}

// simCardToken names the simulated card a SetupIntent saved.
func simCardToken(setupIntentID string) string {
	sum := sha256.Sum256([]byte("simulated-card:" + setupIntentID))
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:10]))
}
