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
		// Apply records an event once per id: one without cannot be.
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

// Outcome is what Apply did with an event.
type Outcome struct {
	AccountID string
	Result    eventstore.Result // Result.Replayed: the event id was applied before
	Ignored   string            // why the event changes nothing; "" when applied
	// Unchanged: the event's command ran and recorded nothing, the ledger
	// knew it already (a race lost to an equal event, say). False for a
	// redelivery answered from its first result.
	Unchanged bool
}

// change is what one event does to one account.
type change struct {
	accountID string
	ignored   string // why nothing is done; apply is nil then
	apply     func(a *domain.Account, at time.Time) error
	settles   *settlement // the payment_intents row the event settles, if any
	// unchanged is why the event is ignored should apply record nothing.
	unchanged string
	// retryUnknown: a payment the ledger does not know yet is worth a
	// redelivery (a refund or dispute that overtook its payment's event).
	retryUnknown bool
	// staff: the console requests (refunds, cancellations) the event
	// applies, whose staff member and reason go into its metadata.
	staff *attribution
	// afterApply writes operational rows in the account's transaction
	// (a saved card's: webhook_setup.go); nil for none.
	afterApply func(ctx context.Context, tx pgx.Tx, at time.Time) error
}

// ignore is a change that records nothing, for reason.
func ignore(reason string) change { return change{ignored: reason} }

// settlement is a payment_intents row's new status, found by intent or by
// invoice id.
type settlement struct {
	byInvoice bool
	id        string
	status    string
}

// handler reads one kind of event into a change.
type handler func(s *Service, ctx context.Context, ev stripe.Event) (change, error)

var handlers = map[stripe.EventType]handler{
	stripe.EventTypeInvoicePaid:                 (*Service).onInvoice,
	stripe.EventTypeInvoicePaymentFailed:        (*Service).onInvoice,
	stripe.EventTypeCustomerSubscriptionUpdated: (*Service).onSubscription,
	stripe.EventTypeCustomerSubscriptionDeleted: (*Service).onSubscription,
	stripe.EventTypePaymentIntentSucceeded:      (*Service).onPaymentIntent,
	stripe.EventTypePaymentIntentPaymentFailed:  (*Service).onPaymentIntent,
	stripe.EventTypeChargeRefunded:              (*Service).onChargeRefunded,
	stripe.EventTypeRefundCreated:               (*Service).onRefundCreated,
	stripe.EventTypeChargeDisputeCreated:        (*Service).onDispute,
	stripe.EventTypeChargeDisputeFundsWithdrawn: (*Service).onDispute,
	stripe.EventTypeChargeDisputeClosed:         (*Service).onDispute,
	stripe.EventTypeSetupIntentSucceeded:        (*Service).onSetupIntent, // a card saved for auto-recharge
}

// Apply records what ev means for its account, once per event id: a
// redelivery returns the first result and appends nothing. Events of other
// types, of unknown customers, and those that change nothing the ledger
// keeps are acknowledged and ignored.
//
// The account's commands run at the later of now and the event's creation:
// a webhook happens now, and the simulated provider's renewal, created at
// the end of the current cycle, moves the account to that moment.
func (s *Service) Apply(ctx context.Context, ev stripe.Event, md eventstore.Metadata) (Outcome, error) {
	h, ok := handlers[ev.Type]
	if !ok || ev.Data == nil {
		return Outcome{Ignored: fmt.Sprintf("event type %s is not handled", ev.Type)}, nil
	}
	c, err := h(s, ctx, ev)
	if err != nil {
		return Outcome{}, fmt.Errorf("%s %s: %w", ev.Type, ev.ID, err)
	}
	out := Outcome{AccountID: c.accountID, Ignored: c.ignored}
	if c.ignored != "" {
		return out, nil
	}
	md.CausationID = ev.ID
	if c.staff != nil {
		md.Actor, md.Reason = c.staff.actor, c.staff.reason
	}
	created := time.Unix(ev.Created, 0).UTC()
	var recorded bool
	out.Result, err = s.accounts.Update(ctx, c.accountID, eventstore.UpdateOptions{
		Metadata: md, IdempotencyKey: idempotencyPrefix + ev.ID, RequestHash: eventHash(ev),
	}, func(ctx context.Context, tx pgx.Tx, a *domain.Account, now time.Time) (any, error) {
		at := now
		if created.After(at) {
			at = created
		}
		if err := a.ExpireDue(at); err != nil {
			return nil, err
		}
		before := len(a.Changes())
		if err := c.apply(a, at); err != nil {
			return nil, err
		}
		recorded = len(a.Changes()) > before
		if err := s.QueueBillingMail(ctx, tx, a, at); err != nil {
			return nil, err
		}
		if err := c.staff.save(ctx, tx, ev.ID); err != nil {
			return nil, err
		}
		if c.afterApply != nil {
			if err := c.afterApply(ctx, tx, at); err != nil {
				return nil, err
			}
		}
		return nil, c.settles.save(ctx, tx)
	})
	if accounts.IsNotFound(err) {
		return Outcome{AccountID: c.accountID, Ignored: "no such account"}, nil
	}
	if domain.ErrorCode(err) == domain.CodeNotFound && c.retryUnknown {
		// The payment's own event has not been applied yet: Stripe retries.
		s.log.WarnContext(ctx, "stripe event about a payment not recorded yet; answered for a retry", "event", ev.ID, "type", ev.Type, "err", err)
		return Outcome{}, fmt.Errorf("%s %s: %w: %w", ev.Type, ev.ID, errNotSettledYet, err)
	}
	if domain.ErrorCode(err) == domain.CodeNotFound {
		// A refund or dispute of a payment the ledger never recorded as paid.
		s.log.WarnContext(ctx, "stripe event about an unknown payment; nothing recorded", "event", ev.ID, "type", ev.Type, "err", err)
		return Outcome{AccountID: c.accountID, Ignored: domain.ErrorMessage(err)}, nil
	}
	if err != nil {
		return Outcome{}, fmt.Errorf("%s %s: %w", ev.Type, ev.ID, err)
	}
	out.Unchanged = !out.Result.Replayed && !recorded
	if c.unchanged != "" && !out.Result.Replayed && out.Result.LastPosition == 0 {
		out.Ignored = c.unchanged
	}
	s.mailQueued()
	return out, nil
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

func (st *settlement) save(ctx context.Context, tx pgx.Tx) error {
	if st == nil {
		return nil
	}
	q := `UPDATE payment_intents SET status = $2, updated_at = now() WHERE intent_id = $1 AND status NOT IN ('succeeded', 'voided')`
	if st.byInvoice {
		q = `UPDATE payment_intents SET status = $2, updated_at = now() WHERE invoice_id = $1 AND status NOT IN ('succeeded', 'voided')`
	}
	if _, err := tx.Exec(ctx, q, st.id, st.status); err != nil {
		return fmt.Errorf("settle payment %s: %w", st.id, err)
	}
	return nil
}

// Intent statuses in payment_intents.
const (
	intentSucceeded = "succeeded"
	intentFailed    = "failed"
	intentVoided    = "voided" // replaced by a newer checkout before it was paid
)

// checkoutVoided reports whether the checkout of invoiceID was voided by a
// newer one: its payment must grant nothing.
func (s *Service) checkoutVoided(ctx context.Context, invoiceID string) (bool, error) {
	var voided bool
	err := s.pool.QueryRow(ctx, `SELECT status = 'voided' FROM payment_intents WHERE invoice_id = $1`, invoiceID).Scan(&voided)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return false, fmt.Errorf("find checkout of %s: %w", invoiceID, err)
	}
	return voided, nil
}

// accountFor finds the account of a provider object: by its customer, which
// this service created, else by the account id in its metadata. "" means
// neither names one.
func (s *Service) accountFor(ctx context.Context, customer *stripe.Customer, metadata map[string]string) (string, error) {
	if customer != nil && customer.ID != "" {
		var id string
		err := s.pool.QueryRow(ctx, `SELECT account_id::text FROM stripe_customers WHERE customer_id = $1`, customer.ID).Scan(&id)
		if err == nil {
			return id, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return "", fmt.Errorf("find customer %s: %w", customer.ID, err)
		}
	}
	return metadata[metaAccountID], nil
}
