package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stripe/stripe-go/v82"

	"github.com/a2e-automation/app/domain"
)

// onSetupIntent handles setup_intent.succeeded: the seller's card, saved
// by Stripe Elements for auto-recharge (POST /api/account/payment-method).
// The card's brand and last digits are asked of Stripe before the account's
// transaction; the payment_methods row and PaymentMethodSaved are written
// together in it, once per event id.
func (s *Service) onSetupIntent(ctx context.Context, ev stripe.Event) (change, error) {
	var si stripe.SetupIntent
	if err := decodeObject(ev, &si, "setup intent"); err != nil {
		return change{}, err
	}
	if si.PaymentMethod == nil || si.PaymentMethod.ID == "" {
		return ignore("no payment method"), nil
	}
	accountID, err := s.accountFor(ctx, si.Customer, si.Metadata)
	if err != nil || accountID == "" {
		return ignore("unknown customer"), err
	}
	card := domain.Card{}
	if si.PaymentMethod.Card != nil {
		card = domain.Card{Brand: string(si.PaymentMethod.Card.Brand), Last4: si.PaymentMethod.Card.Last4}
	} else if card, err = s.provider.PaymentMethodCard(ctx, si.PaymentMethod.ID); err != nil {
		return change{}, err
	}
	pm := si.PaymentMethod.ID
	return change{accountID: accountID, apply: func(a *domain.Account, at time.Time) error {
		a.SavePaymentMethod(card, at)
		return nil
	}, afterApply: func(ctx context.Context, tx pgx.Tx, at time.Time) error {
		if _, err := tx.Exec(ctx, `INSERT INTO payment_methods (account_id, payment_method_id, brand, last4, updated_at)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (account_id) DO UPDATE
			SET payment_method_id = EXCLUDED.payment_method_id, brand = EXCLUDED.brand, last4 = EXCLUDED.last4, updated_at = EXCLUDED.updated_at`,
			accountID, pm, card.Brand, card.Last4, at); err != nil {
			return fmt.Errorf("save payment method: %w", err)
		}
		_, err := tx.Exec(ctx, `UPDATE setup_intents SET status = 'succeeded' WHERE setup_intent_id = $1`, si.ID)
		return err
	}}, nil
}
