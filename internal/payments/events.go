package payments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/catalog"
)

// ErrInvalidWebhook is matched (errors.Is) by every refused webhook: no
// signing secret configured, a missing, wrong or stale signature, a payload
// that is not an event, or an API version stripe-go cannot read.
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
	if releaseTrain(ev.APIVersion) != releaseTrain(stripe.APIVersion) {
		return stripe.Event{}, fmt.Errorf("%w: %w", ErrInvalidWebhook, domain.Errorf(domain.CodeInvalid,
			"This webhook endpoint sends events of Stripe API version %q, which this server cannot read. "+
				"Set the endpoint's API version to %s in the Stripe Dashboard (Developers, Webhooks) or create the endpoint with that version.",
			ev.APIVersion, stripe.APIVersion))
	}
	return ev, nil
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
		if err := s.queueBillingMail(ctx, tx, a, at); err != nil {
			return nil, err
		}
		if err := c.staff.save(ctx, tx, ev.ID); err != nil {
			return nil, err
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

// onInvoice handles invoice.paid (a paid cycle: activate or renew, grant the
// cycle's credits, a paid transaction) and invoice.payment_failed (a failed
// transaction; past due unless that period is paid already).
func (s *Service) onInvoice(ctx context.Context, ev stripe.Event) (change, error) {
	var inv stripe.Invoice
	if err := json.Unmarshal(ev.Data.Raw, &inv); err != nil {
		return change{}, fmt.Errorf("decode invoice: %w", err)
	}
	if inv.Parent == nil || inv.Parent.SubscriptionDetails == nil || inv.Parent.SubscriptionDetails.Subscription == nil {
		return ignore("not a subscription invoice"), nil
	}
	details := inv.Parent.SubscriptionDetails
	subscriptionID := details.Subscription.ID
	start, end, ok := invoicePeriod(&inv)
	if !ok {
		return change{}, domain.Errorf(domain.CodeInvalid, "invoice %s has no subscription period", inv.ID)
	}
	accountID, err := s.accountFor(ctx, inv.Customer, details.Metadata)
	if err != nil || accountID == "" {
		return ignore("unknown customer"), err
	}
	plan := catalog.MonthlyPlan()
	p := domain.PaymentRecorded{
		PaymentID: inv.ID, Kind: KindSubscription, Description: planDescription(plan, start, end),
		InvoiceURL: inv.HostedInvoiceURL, Credits: plan.Credits,
	}
	c := change{accountID: accountID, settles: &settlement{byInvoice: true, id: inv.ID}}
	if ev.Type == stripe.EventTypeInvoicePaid {
		p.Status, p.AmountCents, c.settles.status = domain.PaymentPaid, inv.AmountPaid, intentSucceeded
		p.GrantID = domain.MonthlyGrantID(subscriptionID, start)
		voided, err := s.checkoutVoided(ctx, inv.ID)
		if err != nil {
			return change{}, err
		}
		c.apply = func(a *domain.Account, at time.Time) error {
			if cur := a.SubscriptionID(); voided || (cur != "" && cur != subscriptionID && running(a, at)) {
				// One subscription per seller: a second one's payment grants
				// nothing; staff refund it (docs/payments.md).
				s.log.ErrorContext(ctx, "paid invoice of a subscription that is not the seller's current one; flagged for staff, nothing granted",
					"event", ev.ID, "invoice", inv.ID, "subscription", subscriptionID, "current", cur, "voided", voided, "account", accountID)
				flagged := p
				flagged.Status, flagged.GrantID = domain.PaymentNeedsReview, ""
				return a.RecordPayment(flagged, at)
			}
			if err := a.StartOrRenewCycle(subscriptionID, start, end, plan.Credits, at); err != nil {
				return err
			}
			return a.RecordPayment(p, at)
		}
		return c, nil
	}
	p.Status, p.AmountCents, c.settles.status = domain.PaymentFailed, inv.AmountDue, intentFailed
	c.apply = func(a *domain.Account, at time.Time) error {
		if err := a.RecordPayment(p, at); err != nil {
			return err
		}
		if paid := a.PeriodEnd(); paid != nil && !end.After(*paid) {
			return nil // that period is paid: a late delivery of an earlier attempt
		}
		return a.MarkPastDue(subscriptionID, at)
	}
	return c, nil
}

// invoicePeriod is the billing period an invoice pays for: the latest
// period among its subscription lines.
func invoicePeriod(inv *stripe.Invoice) (start, end time.Time, ok bool) {
	if inv.Lines == nil {
		return time.Time{}, time.Time{}, false
	}
	for _, l := range inv.Lines.Data {
		if l.Period == nil || l.Parent == nil || l.Parent.Type != stripe.InvoiceLineItemParentTypeSubscriptionItemDetails {
			continue
		}
		if e := time.Unix(l.Period.End, 0).UTC(); !ok || e.After(end) {
			start, end, ok = time.Unix(l.Period.Start, 0).UTC(), e, true
		}
	}
	return start, end, ok
}

// onSubscription handles customer.subscription.updated and .deleted. They
// only move the status: past due, cancelled at period end, or ended.
// Activation, renewal and the period end belong to invoice.paid alone, so an
// update that arrives before its invoice.paid cannot cost the cycle's
// grant, and a late one cannot move the period back.
func (s *Service) onSubscription(ctx context.Context, ev stripe.Event) (change, error) {
	var sub stripe.Subscription
	if err := json.Unmarshal(ev.Data.Raw, &sub); err != nil {
		return change{}, fmt.Errorf("decode subscription: %w", err)
	}
	accountID, err := s.accountFor(ctx, sub.Customer, sub.Metadata)
	if err != nil || accountID == "" {
		return ignore("unknown customer"), err
	}
	c := change{accountID: accountID}
	switch {
	case ev.Type == stripe.EventTypeCustomerSubscriptionDeleted || sub.Status == stripe.SubscriptionStatusCanceled:
		if c.staff, err = s.staffAttribution(ctx, accountID, actionStaffCancelNow, sub.ID, 0, -1); err != nil {
			return change{}, err
		}
		c.apply = func(a *domain.Account, at time.Time) error { return a.EndSubscription(sub.ID, at) }
	case sub.CancelAtPeriodEnd || sub.CancelAt != 0:
		if c.staff, err = s.staffAttribution(ctx, accountID, actionStaffCancel, sub.ID, 0, -1); err != nil {
			return change{}, err
		}
		c.apply = func(a *domain.Account, at time.Time) error {
			if a.SubscriptionID() != sub.ID || a.SubscriptionStatusAt(at) != domain.StatusActive || staleFor(a, ev) {
				return nil // another subscription, or not active (already cancelling, past due or ended)
			}
			return a.CancelSubscription(at)
		}
	case sub.Status == stripe.SubscriptionStatusActive:
		// Not cancelling any more: a cancellation undone in the portal.
		// Otherwise activation and renewal wait for invoice.paid.
		c.unchanged = "status active: nothing to record until its invoice is paid"
		c.apply = func(a *domain.Account, at time.Time) error {
			if a.SubscriptionID() != sub.ID || a.SubscriptionStatusAt(at) != domain.StatusCancelling || staleFor(a, ev) {
				return nil
			}
			return a.ResumeSubscription(at)
		}
	case sub.Status == stripe.SubscriptionStatusPastDue || sub.Status == stripe.SubscriptionStatusUnpaid:
		periodEnd := subscriptionPeriodEnd(&sub)
		c.apply = func(a *domain.Account, at time.Time) error {
			if paid := a.PeriodEnd(); paid != nil && !periodEnd.After(*paid) {
				return nil // the period it is past due for is paid: a late delivery
			}
			return a.MarkPastDue(sub.ID, at)
		}
	default:
		c.ignored = fmt.Sprintf("status %s: nothing to record until its invoice is paid", sub.Status)
	}
	return c, nil
}

// staleFor reports whether ev was created before the seller's last cancel
// or resume: Stripe delivers out of order, and an older update must not
// undo a newer decision. Stripe's times are whole seconds.
func staleFor(a *domain.Account, ev stripe.Event) bool {
	changed := a.SubscriptionChangedAt()
	return changed != nil && time.Unix(ev.Created, 0).Before(changed.Truncate(time.Second))
}

// subscriptionPeriodEnd is the latest current period end among the
// subscription's items.
func subscriptionPeriodEnd(sub *stripe.Subscription) time.Time {
	var end int64
	if sub.Items != nil {
		for _, it := range sub.Items.Data {
			end = max(end, it.CurrentPeriodEnd)
		}
	}
	return time.Unix(end, 0).UTC()
}

// onPaymentIntent handles payment_intent.succeeded (grant the purchased
// credits, a paid transaction) and payment_intent.payment_failed (a failed
// transaction) for credit purchases; the PaymentIntents of subscription
// invoices are the invoice events' business. The amount and currency must
// be the catalogue's price of the credits in the metadata.
func (s *Service) onPaymentIntent(ctx context.Context, ev stripe.Event) (change, error) {
	var pi stripe.PaymentIntent
	if err := json.Unmarshal(ev.Data.Raw, &pi); err != nil {
		return change{}, fmt.Errorf("decode payment intent: %w", err)
	}
	if pi.Metadata[metaKind] != KindCredits {
		return ignore("not a credit purchase"), nil
	}
	credits, _ := strconv.ParseInt(pi.Metadata[metaCredits], 10, 64) // not a count: 0 or out of range, refused below
	if !catalog.Charges(credits, pi.Amount, string(pi.Currency)) {
		s.log.ErrorContext(ctx, "payment intent does not match the catalogue; nothing granted",
			"event", ev.ID, "paymentIntent", pi.ID, "credits", pi.Metadata[metaCredits], "amount", pi.Amount, "currency", pi.Currency)
		return ignore("amount does not match the catalogue"), nil
	}
	accountID, err := s.accountFor(ctx, pi.Customer, pi.Metadata)
	if err != nil || accountID == "" {
		return ignore("unknown customer"), err
	}
	p := domain.PaymentRecorded{
		PaymentID: pi.ID, Kind: KindCredits, Description: catalog.CreditsDescription(credits), AmountCents: pi.Amount, Credits: credits,
	}
	c := change{accountID: accountID, settles: &settlement{id: pi.ID}}
	if ev.Type == stripe.EventTypePaymentIntentSucceeded {
		p.Status, c.settles.status, p.GrantID = domain.PaymentPaid, intentSucceeded, "purchase:"+pi.ID
		c.apply = func(a *domain.Account, at time.Time) error {
			err := a.GrantCredits(domain.CreditsGranted{
				GrantID: p.GrantID, Amount: credits, Source: domain.SourcePurchase, Reference: pi.ID,
			}, at)
			if err != nil {
				return err
			}
			return a.RecordPayment(p, at)
		}
		return c, nil
	}
	p.Status, c.settles.status = domain.PaymentFailed, intentFailed
	c.apply = func(a *domain.Account, at time.Time) error { return a.RecordPayment(p, at) }
	return c, nil
}

// planDescription is the transactions list's text of a paid cycle.
func planDescription(plan catalog.Plan, start, end time.Time) string {
	const layout = "Jan 02, 2006"
	return fmt.Sprintf("%s — %s to %s", plan.Name, start.Format(layout), end.Format(layout))
}
