package payments

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
)

// Option configures a Service.
type Option func(*Service)

// WithBilling sets what the billing mails and the portal need: the
// product's name, the app's address (APP_BASE_URL) and the hook that wakes
// the mail sender after a mail is queued.
func WithBilling(productName, baseURL string, mailQueued func()) Option {
	return func(s *Service) { s.productName, s.baseURL, s.mailQueued = productName, baseURL, mailQueued }
}

// ErrNoBillingAccount refuses the portal to a seller who never started a
// checkout: there is nothing to manage yet.
var ErrNoBillingAccount = domain.Errorf(domain.CodeConflict, "You have no billing account yet. Subscribe or buy credits first.")

// PortalURL is where accountID manages billing (update the card, see
// invoices, cancel or resume): a Stripe Billing Portal session returning to
// the subscription page, or the simulated provider's page. What the seller
// does there comes back through the webhooks.
func (s *Service) PortalURL(ctx context.Context, accountID string) (string, error) {
	customerID, err := s.customerOf(ctx, accountID)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", ErrNoBillingAccount
	}
	if err != nil {
		return "", err
	}
	url, err := s.provider.PortalURL(ctx, PortalRequest{CustomerID: customerID, ReturnURL: s.baseURL + "/subscription", BaseURL: s.baseURL})
	if err != nil {
		return "", fmt.Errorf("billing portal: %w", err)
	}
	return url, nil
}

// ErrPaymentProcessing refuses a new subscription while an earlier
// checkout's payment has gone through at the provider but not reached the
// ledger yet.
var ErrPaymentProcessing = domain.Errorf(domain.CodeConflict,
	"Your earlier subscription payment is still being processed. Please wait a moment and reload the page.")

// voidIncomplete cancels, at the provider, every subscription of accountID
// whose first invoice was never paid, and marks its checkout voided: the
// simulated confirmation refuses it and Stripe voids its invoice, so it can
// never be paid beside a newer one. No transaction is open during the calls.
func (s *Service) voidIncomplete(ctx context.Context, accountID string) error {
	rows, err := s.pool.Query(ctx, `SELECT intent_id, subscription_id FROM payment_intents
		WHERE account_id = $1 AND kind = 'subscription' AND status = 'requires_payment' AND subscription_id IS NOT NULL`, accountID)
	if err != nil {
		return fmt.Errorf("find unpaid subscriptions: %w", err)
	}
	type unpaid struct{ intent, subscription string }
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (unpaid, error) {
		var u unpaid
		return u, r.Scan(&u.intent, &u.subscription)
	})
	if err != nil {
		return fmt.Errorf("find unpaid subscriptions: %w", err)
	}
	for _, u := range list {
		key, err := s.reserve(ctx, accountID, actionVoid, 0, u.subscription)
		if err != nil {
			return err
		}
		voided, err := s.provider.VoidUnpaid(ctx, u.subscription, key)
		if err != nil {
			return s.refused(ctx, key, fmt.Errorf("void subscription %s: %w", u.subscription, err))
		}
		if !voided {
			if err := s.settle(ctx, key, func(pgx.Tx) error { return nil }); err != nil {
				return err
			}
			return ErrPaymentProcessing
		}
		if err := s.settle(ctx, key, func(tx pgx.Tx) error {
			_, err := tx.Exec(ctx, `UPDATE payment_intents SET status = 'voided', updated_at = now()
				WHERE intent_id = $1 AND status = 'requires_payment'`, u.intent)
			return err
		}); err != nil {
			return fmt.Errorf("void checkout %s: %w", u.intent, err)
		}
	}
	return nil
}
