package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/payments"
)

// onSetup handles a SetupIntent that saved the seller's card for
// auto-recharge (POST /api/account/payment-method): the card's brand and
// last digits, asked of the provider when the notification lacks them
// (before the account's transaction), and its payment_methods row are
// recorded with PaymentMethodSaved, once per event id.
func (n notifications) onSetup(ctx context.Context, ev payments.Notification) (change, error) {
	si := ev.Setup
	if si.PaymentMethodID == "" {
		return ignore("no payment method"), nil
	}
	accountID, err := n.payments.AccountOf(ctx, si.Owner)
	if err != nil || accountID == "" {
		return ignore("unknown customer"), err
	}
	card := si.Card
	if card == (domain.Card{}) {
		if card, err = n.payments.PaymentMethodCard(ctx, si.PaymentMethodID); err != nil {
			return change{}, err
		}
	}
	return change{accountID: accountID,
		savesCard: &payments.SavedCard{SetupIntentID: si.ID, PaymentMethodID: si.PaymentMethodID, Card: card},
		apply: func(a *domain.Account, at time.Time) error {
			a.SavePaymentMethod(card, at)
			return nil
		}}, nil
}
