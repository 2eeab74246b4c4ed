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
	"github.com/a2e-automation/app/internal/staffaudit"
)

// Refunds and cancellations staff ask for from the console (issue 26). They
// go through the provider like the seller's own calls: reserve (a
// provider_requests row carrying the staff member and the reason), call
// with the reservation's idempotency key and no transaction open, record
// the answer. The ledger changes only when the provider's event arrives
// (the webhook; the simulated provider builds the same event and reports it
// at once, StaffRefund.Report), and its use case takes the staff member and
// the reason from the reservation into that event's metadata, so the staff history shows them
// beside the refund or cancellation.

// Actions of staff reservations in provider_requests.
const (
	actionStaffRefund    = "staff_refund"
	actionStaffCancel    = "staff_cancel"
	actionStaffCancelNow = "staff_cancel_now"
)

// StaffRefundKeyPrefix starts a console refund's Idempotency-Key as the
// API passes it on (StaffRefund.IdempotencyKey), apart from an
// adjustment's; the provider's key is derived from it and the account.
const StaffRefundKeyPrefix = actionStaffRefund + ":"

// StaffRefund asks for a refund from the staff console.
type StaffRefund struct {
	AccountID, PaymentID string
	Credits              *int64 // the price of this many of its credits; nil: all that is left
	Actor, Reason        string // staff:<id>, and why
	// IdempotencyKey is the console's Idempotency-Key: the same key again
	// refunds once and answers the first refund. "": every call is new.
	IdempotencyKey string
	// Amount is the refund's amount by the ledger's rule: of payment p,
	// with pending asked of the provider by other console refunds and not
	// yet in the ledger. It is asked while the claim is held.
	Amount func(p domain.PaidPayment, pending int64) (int64, error)
	// Audit, when set, is the audit line written in the transaction that
	// records the provider's answer, once per refund: not on a replay. An
	// error writing it undoes that record, and the retry asks again with
	// the same key.
	Audit func(done StaffAction) staffaudit.Entry
	// Report applies what the provider reports at once (the simulated
	// provider's refund) and answers the position it reached.
	Report Report
}

// Report applies a notification the provider reports at once, the way a
// webhook's is applied, and answers the position the ledger reached.
type Report func(ctx context.Context, n Notification) (position int64, err error)

// StaffCancel asks for a subscription's cancellation from the console.
type StaffCancel struct {
	AccountID     string
	AtPeriodEnd   bool // else now
	Actor, Reason string
	// Cancellable is the account if its subscription can be cancelled the
	// way asked, else the conflict that says why not; asked before each
	// claim.
	Cancellable func(ctx context.Context) (*domain.Account, error)
	// Audit, when set, is the audit line written in the transaction that
	// records the provider's answer.
	Audit func(done StaffAction) staffaudit.Entry
	// Report applies what the provider reports at once (the simulated
	// provider's cancellation).
	Report Report
}

// StaffAction is what a staff refund or cancellation did.
type StaffAction struct {
	Status      string // StaffActionApplied or StaffActionRequested
	Message     string
	AmountCents int64  // a refund's amount
	RefundID    string // the provider's refund
	Replayed    bool   // the same Idempotency-Key answered before
	Position    int64  // the applied event's position; 0 while only requested
}

// Statuses of a StaffAction.
const (
	// StaffActionRequested: the provider took it; the ledger shows it when
	// the provider's webhook arrives (seconds).
	StaffActionRequested = "requested"
	// StaffActionApplied: the ledger shows it already (the simulated
	// provider applies its event at once).
	StaffActionApplied = "applied"
)

// staffRequest is a staff reservation.
type staffRequest struct {
	key, status, requestHash string
	amountCents              int64
	refundID                 string
	applied                  bool
	claimed, live            bool // claimed_at is set; within checkoutLease
}

// RefundByStaff refunds a paid payment of the account, wholly or the price
// of r.Credits of its credits, through the provider. A console
// Idempotency-Key used again answers the first refund and refunds nothing
// more, also when the attempts arrive together (one provider call, one
// audit line: see claimStaffRefund); used with another payment or amount,
// it is refused (eventstore.ErrIdempotencyKeyReused). Refunds with
// different keys together never ask for more than is left of the payment.
// When the provider does not answer the reservation stays, and the retry
// with the same key gets the refund that call may have made: never two.
func (s *Service) RefundByStaff(ctx context.Context, r StaffRefund) (StaffAction, error) {
	hash := staffRefundHash(r)
	key := StaffRefundKeyPrefix + uuid.NewString()
	if r.IdempotencyKey != "" {
		sum := sha256.Sum256([]byte(r.AccountID + "\x00" + r.IdempotencyKey))
		key = StaffRefundKeyPrefix + hex.EncodeToString(sum[:20])
	}
	deadline := time.Now().Add(checkoutWait)
	var c staffClaim
	for {
		var err error
		if c, err = s.claimStaffRefund(ctx, r, key, hash); err != nil {
			return StaffAction{}, err
		}
		if c.replay {
			return StaffAction{Status: StaffActionRequested, AmountCents: c.req.amountCents, RefundID: c.req.refundID, Replayed: true,
				Message: fmt.Sprintf("Already refunded with this Idempotency-Key: %s (refund %s)", catalog.Dollars(c.req.amountCents), c.req.refundID)}, nil
		}
		if !c.inFlight {
			break
		}
		if err := waitForClaim(ctx, deadline, ErrStaffRefundInProgress); err != nil {
			return StaffAction{}, err
		}
	}
	pi, err := s.paymentIntentOfPayment(ctx, r.AccountID, r.PaymentID, c.payment.Kind)
	if err != nil {
		s.abandonClaim(ctx, c, key)
		return StaffAction{}, err
	}
	amount := c.req.amountCents
	out := StaffAction{Status: StaffActionRequested, AmountCents: amount, RefundID: c.req.refundID,
		Message: fmt.Sprintf("Refund of %s sent to Stripe; the account's history shows it when Stripe confirms it", catalog.Dollars(amount))}
	if !c.apply {
		if out.RefundID, err = s.provider.Refund(ctx, RefundRequest{AccountID: r.AccountID, PaymentIntentID: pi, AmountCents: amount, IdempotencyKey: key}); err != nil {
			return StaffAction{}, s.refused(ctx, key, fmt.Errorf("refund %s of %s: %w", r.PaymentID, r.AccountID, err))
		}
		if err := s.settleOnce(ctx, key, out.RefundID, audit(ctx, r.Audit, out)); err != nil {
			s.release(ctx, key)
			return StaffAction{}, err
		}
	}
	out, err = s.provider.staffRefunded(ctx, s, r, pi, amount, out)
	s.finishClaim(ctx, key, err)
	return out, err
}

// audit is the step that writes the audit line of out, if any, in the
// transaction that records the provider's answer.
func audit(ctx context.Context, line func(StaffAction) staffaudit.Entry, out StaffAction) func(pgx.Tx) error {
	if line == nil {
		return nil
	}
	return func(tx pgx.Tx) error { return staffaudit.RecordTx(ctx, tx, line(out)) }
}

// staffRefundHash identifies what a refund asks for, for its
// Idempotency-Key: the account, the payment and the credits.
func staffRefundHash(r StaffRefund) string {
	credits := "all"
	if r.Credits != nil {
		credits = strconv.FormatInt(*r.Credits, 10)
	}
	sum := sha256.Sum256([]byte(r.AccountID + "\x00" + r.PaymentID + "\x00" + credits))
	return hex.EncodeToString(sum[:])
}

// paymentIntentOfPayment is the PaymentIntent a refund of ledger payment
// paymentID refunds: a credit pack's own, a subscription's first invoice's
// from its checkout, a renewal's from the provider.
func (s *Service) paymentIntentOfPayment(ctx context.Context, accountID, paymentID, kind string) (string, error) {
	if kind == KindCredits {
		return paymentID, nil
	}
	var pi string
	err := s.pool.QueryRow(ctx, `SELECT intent_id FROM payment_intents WHERE invoice_id = $1 AND account_id = $2`, paymentID, accountID).Scan(&pi)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("find payment intent of %s: %w", paymentID, err)
	}
	if pi == "" {
		if pi, err = s.provider.PaymentIntentOfInvoice(ctx, paymentID); err != nil { // no transaction is open
			return "", fmt.Errorf("find payment intent of %s: %w", paymentID, err)
		}
	}
	if pi == "" {
		return "", domain.Errorf(domain.CodeConflict, "No charge is known for payment %s, so it cannot be refunded from the console", paymentID)
	}
	return pi, nil
}

// intentOf reads accountID's checkout of PaymentIntent pi.
func (s *Service) intentOf(ctx context.Context, accountID, pi string) (intent, error) {
	in := intent{accountID: accountID}
	err := s.pool.QueryRow(ctx, `SELECT i.intent_id, i.kind, i.credits, i.amount_cents, i.currency,
			coalesce(i.subscription_id, ''), coalesce(i.invoice_id, ''), i.status, c.customer_id
		FROM payment_intents i JOIN stripe_customers c USING (account_id)
		WHERE i.intent_id = $1 AND i.account_id = $2`, pi, accountID).
		Scan(&in.id, &in.kind, &in.credits, &in.amountCents, &in.currency, &in.subscriptionID, &in.invoiceID, &in.status, &in.customerID)
	if errors.Is(err, pgx.ErrNoRows) {
		return intent{}, ErrUnknownPayment
	}
	if err != nil {
		return intent{}, fmt.Errorf("find payment intent %s: %w", pi, err)
	}
	return in, nil
}

// CancelByStaff cancels the account's subscription through the provider,
// at the end of its paid period or now. An active subscription may end
// either way, a cancelling one only now, a past due one (no paid period
// left) only now. Cancellations sent together share one claim (see
// claimStaffCancel): one provider call and one audit line; one sent while
// Stripe's confirmation of the same is still to come answers that one
// again. An unanswered call keeps its reservation, and the retry reuses
// its key.
func (s *Service) CancelByStaff(ctx context.Context, r StaffCancel) (StaffAction, error) {
	action, call := actionStaffCancelNow, s.provider.CancelNow
	if r.AtPeriodEnd {
		action, call = actionStaffCancel, s.provider.CancelAtPeriodEnd
	}
	deadline := time.Now().Add(checkoutWait)
	var (
		a   *domain.Account
		key string
	)
	for {
		var err error
		if a, err = r.Cancellable(ctx); err != nil {
			return StaffAction{}, err
		}
		c, err := s.claimStaffCancel(ctx, r, action, a.SubscriptionID())
		if err != nil {
			return StaffAction{}, err
		}
		if c.replay {
			return StaffAction{Status: StaffActionRequested, Replayed: true,
				Message: "This cancellation was already sent to Stripe; the account's history shows it when Stripe confirms it"}, nil
		}
		if key = c.req.key; !c.inFlight {
			break
		}
		if err := waitForClaim(ctx, deadline, ErrStaffCancelInProgress); err != nil {
			return StaffAction{}, err
		}
	}
	subscriptionID, now := a.SubscriptionID(), s.accounts.Now()
	if err := call(ctx, subscriptionID, key); err != nil {
		return StaffAction{}, s.refused(ctx, key, fmt.Errorf("%s subscription %s: %w", action, subscriptionID, err))
	}
	out := StaffAction{Status: StaffActionRequested, Message: "Cancellation sent to Stripe; the account's history shows it when Stripe confirms it"}
	err := s.settleOnce(ctx, key, "", audit(ctx, r.Audit, out))
	defer s.finishClaim(ctx, key, nil)
	if err != nil {
		s.release(ctx, key)
		return StaffAction{}, err
	}
	return s.provider.staffCancelled(ctx, s, r, a, subscriptionID, now, out)
}
