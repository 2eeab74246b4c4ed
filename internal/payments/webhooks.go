package payments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
)

// ErrInvalidWebhook is matched (errors.Is) by every refused webhook: no
// signing secret configured, a missing, wrong or stale signature, a payload
// that is not an event, an event without an id, an API version stripe-go
// cannot read, or an object that does not parse.
var ErrInvalidWebhook = errors.New("invalid Stripe webhook")

// idempotencyPrefix namespaces Stripe event ids among an account stream's
// idempotency keys.
const idempotencyPrefix = "stripe:"

// ParseWebhook verifies a webhook's Stripe-Signature header against the
// signing secret and returns its event.
func (s *Service) ParseWebhook(payload []byte, signature string) (stripe.Event, error) {
	if s.webhookSecret == "" {
		return stripe.Event{}, fmt.Errorf("%w: STRIPE_WEBHOOK_SECRET is not set", ErrInvalidWebhook)
	}
	// The version is checked after the signature, so that a wrong one is
	// reported as what it is rather than as a bad signature.
	ev, err := webhook.ConstructEventWithOptions(payload, signature, s.webhookSecret,
		webhook.ConstructEventOptions{IgnoreAPIVersionMismatch: true})
	if err != nil {
		return stripe.Event{}, fmt.Errorf("%w: %v", ErrInvalidWebhook, err)
	}
	if ev.ID == "" {
		// The ledger records an event once per id: one without cannot be.
		return stripe.Event{}, fmt.Errorf("%w: %w", ErrInvalidWebhook, domain.Errorf(domain.CodeInvalid, "The event has no id"))
	}
	if releaseTrain(ev.APIVersion) != releaseTrain(stripe.APIVersion) {
		return stripe.Event{}, fmt.Errorf("%w: %w", ErrInvalidWebhook, domain.Errorf(domain.CodeInvalid,
			"This webhook endpoint sends events of Stripe API version %q, which this server cannot read. "+
				"Set the endpoint's API version to %s in the Stripe Dashboard (Developers, Webhooks) or create the endpoint with that version.",
			ev.APIVersion, stripe.APIVersion))
	}
	return ev, nil
}

// decodeObject reads ev's object into v, a what. An object that does not
// parse is refused as a malformed webhook (400): Stripe's retries would
// bring the same bytes for days.
func decodeObject(ev stripe.Event, v any, what string) error {
	if err := json.Unmarshal(ev.Data.Raw, v); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidWebhook, domain.Errorf(domain.CodeInvalid,
			"The %s event's %s object cannot be read: %v", ev.Type, what, err))
	}
	return nil
}

// releaseTrain is the part of a Stripe API version after its date ("basil"
// of "2025-03-31.basil"): versions of one train share the shape stripe-go
// reads. A version without one predates trains.
func releaseTrain(version string) string {
	_, train, ok := strings.Cut(version, ".")
	if !ok {
		return ""
	}
	return train
}

// ParseNotification verifies a webhook (ParseWebhook) and reads its event
// into a Notification: what the ledger applies.
func (s *Service) ParseNotification(payload []byte, signature string) (Notification, error) {
	ev, err := s.ParseWebhook(payload, signature)
	if err != nil {
		return Notification{}, err
	}
	return notificationOf(ev)
}

// Settlement is the payment_intents row a notification settles, found by
// its PaymentIntent or, ByInvoice, by its invoice id: paid or failed.
type Settlement struct {
	ByInvoice bool
	ID        string
	Paid      bool
}

// AccountChange is a change of one account that the provider's storage
// records beside its events, in their transaction: Decide changes the
// account (it sees the account, never the transaction); the billing mails
// its new events deserve are queued, Settles settles its checkout, and
// Staff's console requests are marked applied by event EventID.
type AccountChange struct {
	AccountID string
	Options   eventstore.UpdateOptions
	// At is when the change happens when later than the transaction's
	// clock (a simulated renewal at its cycle's end); zero: now.
	At      time.Time
	Decide  func(a *domain.Account, at time.Time) error
	Settles *Settlement
	Staff   *Attribution
	EventID string
	// SavesCard is the card a confirmed SetupIntent saved for
	// auto-recharge, stored with PaymentMethodSaved; nil for none.
	SavesCard *SavedCard
}

// Record runs c on its account, in one transaction with what the
// provider's storage keeps of it, then wakes the mail sender.
func (s *Service) Record(ctx context.Context, c AccountChange) (eventstore.Result, error) {
	res, err := s.accounts.Change(ctx, c.AccountID, c.Options, func(ctx context.Context, w accounts.Work, a *domain.Account, now time.Time) (any, error) {
		at := now
		if c.At.After(at) {
			at = c.At
		}
		if err := c.Decide(a, at); err != nil {
			return nil, err
		}
		if err := s.queueBillingMail(ctx, w, a, at); err != nil {
			return nil, err
		}
		return nil, w.Save(ctx, c.Staff.row(c.EventID), c.SavesCard.row(c.AccountID, at), c.Settles)
	})
	if err == nil {
		s.mailQueued()
	}
	return res, err
}

// eventHash identifies an event's content: its type and object. Stripe's
// redeliveries differ in other fields (pending_webhooks), never in these.
func eventHash(ev stripe.Event) string {
	h := sha256.New()
	h.Write([]byte(ev.Type))
	h.Write([]byte{0})
	h.Write(ev.Data.Raw)
	return hex.EncodeToString(h.Sum(nil))
}

// SaveIn marks the settled checkout paid or failed (accounts.Row).
func (st *Settlement) SaveIn(ctx context.Context, tx pgx.Tx) error {
	if st == nil {
		return nil
	}
	status := intentFailed
	if st.Paid {
		status = intentSucceeded
	}
	q := `UPDATE payment_intents SET status = $2, updated_at = now() WHERE intent_id = $1 AND status NOT IN ('succeeded', 'voided')`
	if st.ByInvoice {
		q = `UPDATE payment_intents SET status = $2, updated_at = now() WHERE invoice_id = $1 AND status NOT IN ('succeeded', 'voided')`
	}
	if _, err := tx.Exec(ctx, q, st.ID, status); err != nil {
		return fmt.Errorf("settle payment %s: %w", st.ID, err)
	}
	return nil
}

// Intent statuses in payment_intents.
const (
	intentSucceeded = "succeeded"
	intentFailed    = "failed"
	intentVoided    = "voided" // replaced by a newer checkout before it was paid
)

// CheckoutVoided reports whether the checkout of invoiceID was voided by a
// newer one: its payment must grant nothing.
func (s *Service) CheckoutVoided(ctx context.Context, invoiceID string) (bool, error) {
	var voided bool
	err := s.pool.QueryRow(ctx, `SELECT status = 'voided' FROM payment_intents WHERE invoice_id = $1`, invoiceID).Scan(&voided)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return false, fmt.Errorf("find checkout of %s: %w", invoiceID, err)
	}
	return voided, nil
}

// AccountOf finds the account of a provider object: by its customer, which
// this service created, else by the account id in its metadata. "" means
// neither names one.
func (s *Service) AccountOf(ctx context.Context, o Owner) (string, error) {
	if o.CustomerID != "" {
		var id string
		err := s.pool.QueryRow(ctx, `SELECT account_id::text FROM stripe_customers WHERE customer_id = $1`, o.CustomerID).Scan(&id)
		if err == nil {
			return id, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return "", fmt.Errorf("find customer %s: %w", o.CustomerID, err)
		}
	}
	return o.AccountID, nil
}
