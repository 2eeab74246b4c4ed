package payments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
)

// PaymentRef is the ledger's payment behind a charge: its account and
// payment id (the PaymentIntent of a credit pack, the invoice of a
// subscription cycle).
type PaymentRef struct {
	AccountID, PaymentID string
}

// ErrNotSettledYet answers an event about a payment whose own success has
// not arrived yet: Stripe retries it, by when it has.
var ErrNotSettledYet = domain.Unavailable(time.Minute, "the payment this event is about has not been recorded yet")

// PaymentOf finds the ledger payment of PaymentIntent piID, owned by o: from
// the checkouts this service started, else from a credit pack's metadata,
// else from the invoice the provider says it paid (a renewal; asked with
// no transaction open). ok is false when none is known.
func (s *Service) PaymentOf(ctx context.Context, piID string, o Owner) (ref PaymentRef, ok bool, err error) {
	if piID == "" {
		return PaymentRef{}, false, nil
	}
	var kind, status, invoiceID string
	err = s.pool.QueryRow(ctx, `SELECT account_id::text, kind, status, coalesce(invoice_id, '') FROM payment_intents WHERE intent_id = $1`, piID).
		Scan(&ref.AccountID, &kind, &status, &invoiceID)
	switch {
	case err == nil:
		// A voided checkout paid after all stays voided here, and the
		// ledger holds its payment for staff to refund (needs review):
		// the ledger says whether it is paid (retryUnknown).
		if status != intentSucceeded && status != intentVoided {
			return PaymentRef{}, false, ErrNotSettledYet
		}
		ref.PaymentID = piID
		if kind == KindSubscription {
			ref.PaymentID = invoiceID
		}
		return ref, true, nil
	case !errors.Is(err, pgx.ErrNoRows):
		return PaymentRef{}, false, fmt.Errorf("find payment %s: %w", piID, err)
	}
	if ref.AccountID, err = s.AccountOf(ctx, o); err != nil || ref.AccountID == "" {
		return PaymentRef{}, false, err
	}
	if o.Kind == KindCredits {
		return PaymentRef{AccountID: ref.AccountID, PaymentID: piID}, true, nil
	}
	invoiceID, err = s.provider.InvoiceOfPaymentIntent(ctx, piID) // no transaction is open
	if err != nil || invoiceID == "" {
		return PaymentRef{}, false, err
	}
	return PaymentRef{AccountID: ref.AccountID, PaymentID: invoiceID}, true, nil
}

// DisputedPayment finds the ledger payment dispute d disputes. Stripe sends
// the charge as an id: when the checkouts this service started do not know
// its PaymentIntent (a renewal, say), the charge is asked for its customer
// and metadata, outside any transaction and within the provider's time
// budget.
func (s *Service) DisputedPayment(ctx context.Context, d *Dispute) (PaymentRef, bool, error) {
	piID, charge := d.PaymentIntentID, d.Charge
	var owner Owner
	if charge != nil {
		owner = charge.Owner
		if piID == "" {
			piID = charge.PaymentIntentID
		}
	}
	ref, ok, err := s.PaymentOf(ctx, piID, owner)
	if err != nil || ok || charge == nil || charge.ID == "" || charge.Known {
		return ref, ok, err
	}
	co, err := s.provider.ChargeOwner(ctx, charge.ID) // no transaction is open
	if err != nil {
		return PaymentRef{}, false, fmt.Errorf("find the charge %s: %w", charge.ID, err)
	}
	if piID == "" {
		piID = co.PaymentIntentID
	}
	return s.PaymentOf(ctx, piID, Owner{CustomerID: co.CustomerID, AccountID: co.Metadata[metaAccountID], Kind: co.Metadata[metaKind]})
}
