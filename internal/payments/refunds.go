package payments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stripe/stripe-go/v82"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
)

// paymentRef is the ledger's payment behind a charge: its account and
// payment id (the PaymentIntent of a credit pack, the invoice of a
// subscription cycle).
type paymentRef struct {
	accountID, paymentID string
}

// errNotSettledYet answers an event about a payment whose own success has
// not arrived yet: Stripe retries it, by when it has.
var errNotSettledYet = domain.Unavailable(time.Minute, "the payment this event is about has not been recorded yet")

// paymentOf finds the ledger payment of PaymentIntent piID: from the
// checkouts this service started, else from a credit pack's metadata, else
// from the invoice the provider says it paid (a renewal). ok is false when
// none is known.
func (s *Service) paymentOf(ctx context.Context, piID string, customer *stripe.Customer, metadata map[string]string) (ref paymentRef, ok bool, err error) {
	if piID == "" {
		return paymentRef{}, false, nil
	}
	var kind, status, invoiceID string
	err = s.pool.QueryRow(ctx, `SELECT account_id::text, kind, status, coalesce(invoice_id, '') FROM payment_intents WHERE intent_id = $1`, piID).
		Scan(&ref.accountID, &kind, &status, &invoiceID)
	switch {
	case err == nil:
		// A voided checkout paid after all stays voided here, and the
		// ledger holds its payment for staff to refund (needs review):
		// the ledger says whether it is paid (retryUnknown).
		if status != intentSucceeded && status != intentVoided {
			return paymentRef{}, false, errNotSettledYet
		}
		ref.paymentID = piID
		if kind == KindSubscription {
			ref.paymentID = invoiceID
		}
		return ref, true, nil
	case !errors.Is(err, pgx.ErrNoRows):
		return paymentRef{}, false, fmt.Errorf("find payment %s: %w", piID, err)
	}
	if ref.accountID, err = s.accountFor(ctx, customer, metadata); err != nil || ref.accountID == "" {
		return paymentRef{}, false, err
	}
	if metadata[metaKind] == KindCredits {
		return paymentRef{accountID: ref.accountID, paymentID: piID}, true, nil
	}
	invoiceID, err = s.provider.InvoiceOfPaymentIntent(ctx, piID) // no transaction is open
	if err != nil || invoiceID == "" {
		return paymentRef{}, false, err
	}
	return paymentRef{accountID: ref.accountID, paymentID: invoiceID}, true, nil
}

// onChargeRefunded handles charge.refunded: amount_refunded is the charge's
// refunded total, so a redelivery or a late, older event changes nothing,
// and each partial refund takes back only its own share of the credits.
func (s *Service) onChargeRefunded(ctx context.Context, ev stripe.Event) (change, error) {
	var ch stripe.Charge
	if err := decodeObject(ev, &ch, "charge"); err != nil {
		return change{}, err
	}
	if ch.AmountRefunded <= 0 {
		return ignore("nothing refunded"), nil
	}
	var piID string
	if ch.PaymentIntent != nil {
		piID = ch.PaymentIntent.ID
	}
	ref, ok, err := s.paymentOf(ctx, piID, ch.Customer, ch.Metadata)
	if err != nil || !ok {
		return ignore("not a payment of this product"), err
	}
	staff, err := s.refundAttribution(ctx, ref, ch.AmountRefunded)
	if err != nil {
		return change{}, err
	}
	return change{accountID: ref.accountID, retryUnknown: true, staff: staff, apply: func(a *domain.Account, at time.Time) error {
		return a.RefundPayment(ref.paymentID, ch.AmountRefunded, at)
	}}, nil
}

// refundAttribution finds the staff refunds of ref that a new refunded
// total of total covers: those asked from the console, in order, whose
// amounts fit between what the ledger has refunded so far and total.
func (s *Service) refundAttribution(ctx context.Context, ref paymentRef, total int64) (*attribution, error) {
	a, err := s.accounts.FromSnapshot(ctx, ref.accountID)
	if accounts.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	p, _ := a.Paid(ref.paymentID)
	if total <= p.RefundedCents {
		return nil, nil // a redelivery or a late event: it changes nothing
	}
	return s.staffAttribution(ctx, ref.accountID, actionStaffRefund, ref.paymentID, p.RefundedCents, total)
}

// onRefundCreated acknowledges refund.created: the refund is applied from
// charge.refunded, which carries the charge's refunded total, so that two
// events about one refund never take its credits twice.
func (s *Service) onRefundCreated(context.Context, stripe.Event) (change, error) {
	return ignore("refunds are applied from charge.refunded"), nil
}

// onDispute handles charge.dispute.created and .funds_withdrawn (the
// dispute opens: spending freezes) and .closed (won or warning_closed:
// unfreeze; lost: the credits go too).
func (s *Service) onDispute(ctx context.Context, ev stripe.Event) (change, error) {
	var dp stripe.Dispute
	if err := decodeObject(ev, &dp, "dispute"); err != nil {
		return change{}, err
	}
	var piID string
	if dp.PaymentIntent != nil {
		piID = dp.PaymentIntent.ID
	}
	ref, ok, err := s.paymentOfDispute(ctx, piID, dp.Charge)
	if err != nil || !ok {
		return ignore("not a payment of this product"), err
	}
	c := change{accountID: ref.accountID, retryUnknown: true}
	if ev.Type != stripe.EventTypeChargeDisputeClosed {
		c.apply = func(a *domain.Account, at time.Time) error { return a.OpenDispute(dp.ID, ref.paymentID, dp.Amount, at) }
		return c, nil
	}
	lost := dp.Status == stripe.DisputeStatusLost
	c.apply = func(a *domain.Account, at time.Time) error { return a.CloseDispute(dp.ID, ref.paymentID, !lost, at) }
	return c, nil
}

// paymentOfDispute finds the ledger payment a dispute of charge (paid with
// PaymentIntent piID) disputes. Stripe sends the charge as an id: when the
// checkouts this service started do not know piID (a renewal, say), the
// charge is asked for its customer and metadata, outside any transaction
// and within the provider's time budget.
func (s *Service) paymentOfDispute(ctx context.Context, piID string, charge *stripe.Charge) (paymentRef, bool, error) {
	var customer *stripe.Customer
	var metadata map[string]string
	if charge != nil {
		customer, metadata = charge.Customer, charge.Metadata
		if piID == "" && charge.PaymentIntent != nil {
			piID = charge.PaymentIntent.ID
		}
	}
	ref, ok, err := s.paymentOf(ctx, piID, customer, metadata)
	if err != nil || ok || charge == nil || charge.ID == "" || customer != nil || metadata != nil {
		return ref, ok, err
	}
	owner, err := s.provider.ChargeOwner(ctx, charge.ID) // no transaction is open
	if err != nil {
		return paymentRef{}, false, fmt.Errorf("find the charge %s: %w", charge.ID, err)
	}
	if piID == "" {
		piID = owner.PaymentIntentID
	}
	if owner.CustomerID != "" {
		customer = &stripe.Customer{ID: owner.CustomerID}
	}
	return s.paymentOf(ctx, piID, customer, owner.Metadata)
}
