package payments

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stripe/stripe-go/v82"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/catalog"
)

// Simulated is the development Provider: ids and client secrets of its own,
// no network. Its payments are confirmed by Service.ConfirmSimulated and its
// subscriptions renewed by Service.AdvanceSimulatedCycle, which report the
// outcome as the Stripe event a webhook would bring.
type Simulated struct{}

// NewSimulated returns the simulated provider.
func NewSimulated() *Simulated { return &Simulated{} }

// Prefixes of the simulated provider's ids.
const (
	simCustomer     = "cus_sim_"
	simSubscription = "sub_sim_"
	simInvoice      = "in_sim_"
	simIntent       = "pi_sim_"
	simEvent        = "evt_sim_"
	simRefund       = "re_sim_"
)

// Name implements Provider.
func (*Simulated) Name() string { return ProviderSimulated }

// CreateCustomer implements Provider.
func (*Simulated) CreateCustomer(context.Context, CustomerRequest) (string, error) {
	return simCustomer + simToken(), nil
}

// CreateSubscription implements Provider: one token names the subscription,
// its first invoice and that invoice's PaymentIntent. The same idempotency
// key makes the same objects, as Stripe answers a repeated key.
func (*Simulated) CreateSubscription(_ context.Context, r SubscriptionRequest) (Checkout, error) {
	t, secret := simObject(r.IdempotencyKey)
	return Checkout{
		PaymentIntentID: simIntent + t, ClientSecret: secret,
		SubscriptionID: simSubscription + t, InvoiceID: simInvoice + t,
	}, nil
}

// CreatePaymentIntent implements Provider, with the same objects for the
// same idempotency key.
func (*Simulated) CreatePaymentIntent(_ context.Context, r PaymentIntentRequest) (Checkout, error) {
	t, secret := simObject(r.IdempotencyKey)
	return Checkout{PaymentIntentID: simIntent + t, ClientSecret: secret}, nil
}

// CancelAtPeriodEnd implements Provider; the simulated subscription simply
// is not renewed again.
func (*Simulated) CancelAtPeriodEnd(context.Context, string, string) error { return nil }

// Resume implements Provider; nothing to tell anyone.
func (*Simulated) Resume(context.Context, string, string) error { return nil }

// CancelNow implements Provider; the simulated subscription simply ends.
func (*Simulated) CancelNow(context.Context, string, string) error { return nil }

// VoidUnpaid implements Provider: a simulated checkout is paid only through
// ConfirmSimulated, which records it at once, so an unpaid one is voidable.
func (*Simulated) VoidUnpaid(context.Context, string, string) (bool, error) { return true, nil }

// PortalURL implements Provider: the webapp's clearly labelled stand-in for
// Stripe's portal, which drives the same calls.
func (*Simulated) PortalURL(_ context.Context, r PortalRequest) (string, error) {
	return strings.TrimSuffix(r.BaseURL, "/") + SimulatedPortalPath, nil
}

// SimulatedPortalPath is the webapp page of the simulated billing portal.
const SimulatedPortalPath = "/dev/billing-portal"

// ChargeOwner implements Provider: the simulated provider's disputes carry
// their charge expanded, so it is never asked; it knows no charge.
func (*Simulated) ChargeOwner(context.Context, string) (ChargeOwner, error) {
	return ChargeOwner{}, nil
}

// InvoiceOfPaymentIntent implements Provider: the simulated renewals are
// paid without a PaymentIntent, so none is known.
func (*Simulated) InvoiceOfPaymentIntent(context.Context, string) (string, error) { return "", nil }

// PaymentIntentOfInvoice implements Provider: a simulated subscription's
// first invoice is paid by the PaymentIntent of its checkout (found in
// payment_intents by the service); renewals by none.
func (*Simulated) PaymentIntentOfInvoice(context.Context, string) (string, error) { return "", nil }

// Refund implements Provider: the refund's id, the same for the same
// idempotency key; the service then applies the charge.refunded Stripe
// would send.
func (*Simulated) Refund(_ context.Context, r RefundRequest) (string, error) {
	t, _ := simObject(r.IdempotencyKey)
	return simRefund + t, nil
}

// simToken is a random id part.
func simToken() string { return strings.ToLower(rand.Text()) }

// simObject is the token and the client secret (in Stripe's shape) of the
// object a call with idempotency key makes: derived from the key, which is
// random and never leaves the server, so a repeated key gets the same
// object back; random without a key.
func simObject(key string) (token, clientSecret string) {
	if key == "" {
		token = simToken()
		return token, simIntent + token + "_secret_" + rand.Text()
	}
	derive := func(purpose string) string {
		sum := sha256.Sum256([]byte(purpose + ":" + key))
		return base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:16])
	}
	token = strings.ToLower(derive("simulated-object"))
	return token, simIntent + token + "_secret_" + derive("simulated-secret")
}

// Outcomes of a simulated payment.
const (
	OutcomeSucceeded = "succeeded"
	OutcomeFailed    = "failed"
)

// declineMessage is what a simulated declined card says, as Stripe's test
// card 4000 0000 0000 0002 does.
const declineMessage = "Your card was declined."

// Errors of the simulated flows, in words a developer can act on.
var (
	ErrNotSimulated     = domain.Errorf(domain.CodeNotFound, "The simulated payment provider is not active")
	ErrUnknownPayment   = domain.Errorf(domain.CodeNotFound, "No such payment")
	ErrAlreadyConfirmed = domain.Errorf(domain.CodeConflict, "This payment has already been confirmed")
	ErrNothingToRenew   = domain.Errorf(domain.CodeConflict, "No active subscription to renew")
	ErrNotSimulatedSub  = domain.Errorf(domain.CodeConflict, "This subscription does not belong to the simulated provider")
	ErrCheckoutReplaced = domain.Errorf(domain.CodeConflict, "This checkout was replaced by a newer one. Please start the payment again.")
)

// Simulation is the answer of a simulated payment: its outcome in the
// webapp's words and what was appended.
type Simulation struct {
	Status  string // OutcomeSucceeded or OutcomeFailed
	Message string
	Outcome Outcome
}

// ConfirmSimulated confirms the simulated payment of clientSecret, which
// must be accountID's, as paid or declined (outcome), and records exactly
// what the matching Stripe webhook would: it builds that event and applies
// it with Apply. A subscription's first invoice pays the month from now.
func (s *Service) ConfirmSimulated(ctx context.Context, accountID, clientSecret, outcome string, md eventstore.Metadata) (Simulation, error) {
	if err := s.checkSimulated(outcome); err != nil {
		return Simulation{}, err
	}
	in, err := s.simulatedIntent(ctx, accountID, clientSecret)
	if err != nil {
		return Simulation{}, err
	}
	if in.status == intentSucceeded {
		return Simulation{}, ErrAlreadyConfirmed
	}
	if in.status == intentVoided {
		return Simulation{}, ErrCheckoutReplaced
	}
	in.accountID = accountID
	if in.kind == KindSubscription {
		a, err := s.accounts.FromSnapshot(ctx, accountID)
		if err != nil {
			return Simulation{}, err
		}
		if err := AlreadySubscribed(a, s.accounts.Now()); err != nil {
			return Simulation{}, err
		}
	}
	now := s.accounts.Now()
	var ev stripe.Event
	if in.kind == KindCredits {
		ev, err = in.paymentIntentEvent(outcome, now)
	} else {
		ev, err = in.invoiceEvent(outcome, now, now.AddDate(0, 1, 0), now)
	}
	if err != nil {
		return Simulation{}, err
	}
	return s.simulate(ctx, ev, outcome, md)
}

// simulatedIntent finds accountID's simulated payment of clientSecret, or
// ErrUnknownPayment (another account's secret included).
func (s *Service) simulatedIntent(ctx context.Context, accountID, clientSecret string) (intent, error) {
	in := intent{accountID: accountID}
	err := s.pool.QueryRow(ctx, `SELECT i.intent_id, i.kind, i.credits, i.amount_cents, i.currency,
			coalesce(i.subscription_id, ''), coalesce(i.invoice_id, ''), i.status, c.customer_id
		FROM payment_intents i JOIN stripe_customers c USING (account_id)
		WHERE i.client_secret_hash = $1 AND i.account_id = $2`, secretHash(clientSecret), accountID).
		Scan(&in.id, &in.kind, &in.credits, &in.amountCents, &in.currency, &in.subscriptionID, &in.invoiceID, &in.status, &in.customerID)
	if errors.Is(err, pgx.ErrNoRows) {
		return intent{}, ErrUnknownPayment
	}
	if err != nil {
		return intent{}, fmt.Errorf("find payment intent: %w", err)
	}
	return in, nil
}

// AdvanceSimulatedCycle ends accountID's current billing cycle as Stripe's
// next invoice.paid (outcome succeeded) or invoice.payment_failed would: the
// event is created at the end of the current period, so applying it expires
// the cycle's monthly credits first, then starts the next cycle with its
// grant, or marks the subscription past due. A past due subscription
// retries the same invoice.
func (s *Service) AdvanceSimulatedCycle(ctx context.Context, accountID, outcome string, md eventstore.Metadata) (Simulation, error) {
	if err := s.checkSimulated(outcome); err != nil {
		return Simulation{}, err
	}
	a, err := s.accounts.FromSnapshot(ctx, accountID)
	if err != nil {
		return Simulation{}, err
	}
	if !running(a, s.accounts.Now()) || a.PeriodEnd() == nil {
		return Simulation{}, ErrNothingToRenew
	}
	token, ok := strings.CutPrefix(a.SubscriptionID(), simSubscription)
	if !ok {
		return Simulation{}, ErrNotSimulatedSub
	}
	customerID, err := s.customerOf(ctx, accountID)
	if err != nil {
		return Simulation{}, err
	}
	if ends := a.SubscriptionEndsAt(); ends != nil {
		// Cancelling: the period end ends it, as Stripe's
		// customer.subscription.deleted at that moment does.
		ev, err := simulatedEvent(stripe.EventTypeCustomerSubscriptionDeleted, *ends, &stripe.Subscription{
			ID: a.SubscriptionID(), Object: "subscription", Customer: &stripe.Customer{ID: customerID},
			Status: stripe.SubscriptionStatusCanceled, EndedAt: ends.Unix(), Metadata: map[string]string{metaAccountID: accountID},
		})
		if err != nil {
			return Simulation{}, err
		}
		sim, err := s.simulate(ctx, ev, OutcomeSucceeded, md)
		sim.Message = "Subscription ended"
		return sim, err
	}
	plan := catalog.MonthlyPlan()
	start := *a.PeriodEnd()
	in := intent{
		accountID: accountID, customerID: customerID, kind: KindSubscription, credits: plan.Credits,
		amountCents: plan.PriceCents, currency: catalog.Currency, subscriptionID: a.SubscriptionID(),
		invoiceID: simInvoice + token + "_" + strconv.FormatInt(start.Unix(), 10),
	}
	ev, err := in.invoiceEvent(outcome, start, start.AddDate(0, 1, 0), start)
	if err != nil {
		return Simulation{}, err
	}
	return s.simulate(ctx, ev, outcome, md)
}

// checkSimulated refuses the simulated flows when another provider is
// active, and outcomes other than succeeded and failed.
func (s *Service) checkSimulated(outcome string) error {
	if err := s.provider.simulation(); err != nil {
		return err
	}
	if outcome != OutcomeSucceeded && outcome != OutcomeFailed {
		return domain.Errorf(domain.CodeInvalid, "The outcome must be %q or %q", OutcomeSucceeded, OutcomeFailed)
	}
	return nil
}

// simulate applies a simulated event like a webhook's.
func (s *Service) simulate(ctx context.Context, ev stripe.Event, outcome string, md eventstore.Metadata) (Simulation, error) {
	md.Actor = "simulated-provider"
	out, err := s.Apply(ctx, ev, md)
	if err != nil {
		return Simulation{}, err
	}
	if out.Ignored != "" {
		return Simulation{}, fmt.Errorf("simulated %s %s ignored: %s", ev.Type, ev.ID, out.Ignored)
	}
	sim := Simulation{Status: outcome, Message: "Payment succeeded", Outcome: out}
	if outcome == OutcomeFailed {
		sim.Message = declineMessage
	}
	return sim, nil
}

// intent is a simulated payment and whose it is.
type intent struct {
	id, accountID, customerID, kind, currency, subscriptionID, invoiceID, status string
	credits, amountCents                                                         int64
}

// paymentIntentEvent is the payment_intent.succeeded or
// .payment_failed event of a credit purchase, created at created.
func (in intent) paymentIntentEvent(outcome string, created time.Time) (stripe.Event, error) {
	pi := &stripe.PaymentIntent{
		ID: in.id, Object: "payment_intent", Amount: in.amountCents, Currency: stripe.Currency(in.currency),
		Customer: &stripe.Customer{ID: in.customerID}, Metadata: intentMetadata(in.accountID, in.credits),
		Description: catalog.CreditsDescription(in.credits), Created: created.Unix(),
		Status: stripe.PaymentIntentStatusSucceeded, AmountReceived: in.amountCents,
	}
	typ := stripe.EventTypePaymentIntentSucceeded
	if outcome == OutcomeFailed {
		typ, pi.Status, pi.AmountReceived = stripe.EventTypePaymentIntentPaymentFailed, stripe.PaymentIntentStatusRequiresPaymentMethod, 0
		pi.LastPaymentError = &stripe.Error{Type: stripe.ErrorTypeCard, Code: stripe.ErrorCodeCardDeclined, Msg: declineMessage}
	}
	return simulatedEvent(typ, created, pi)
}

// invoiceEvent is the invoice.paid or .payment_failed event of the
// subscription invoice for start to end, created at created.
func (in intent) invoiceEvent(outcome string, start, end, created time.Time) (stripe.Event, error) {
	inv := &stripe.Invoice{
		ID: in.invoiceID, Object: "invoice", Customer: &stripe.Customer{ID: in.customerID},
		Currency: stripe.Currency(in.currency), AmountDue: in.amountCents, Created: created.Unix(),
		Status: stripe.InvoiceStatusPaid, AmountPaid: in.amountCents,
		Parent: &stripe.InvoiceParent{
			Type: stripe.InvoiceParentTypeSubscriptionDetails,
			SubscriptionDetails: &stripe.InvoiceParentSubscriptionDetails{
				Subscription: &stripe.Subscription{ID: in.subscriptionID},
				Metadata:     map[string]string{metaAccountID: in.accountID},
			},
		},
		Lines: &stripe.InvoiceLineItemList{Data: []*stripe.InvoiceLineItem{{
			Object: "line_item", Amount: in.amountCents, Currency: stripe.Currency(in.currency),
			Period: &stripe.Period{Start: start.Unix(), End: end.Unix()},
			Parent: &stripe.InvoiceLineItemParent{
				Type:                    stripe.InvoiceLineItemParentTypeSubscriptionItemDetails,
				SubscriptionItemDetails: &stripe.InvoiceLineItemParentSubscriptionItemDetails{Subscription: in.subscriptionID},
			},
		}}},
	}
	typ := stripe.EventTypeInvoicePaid
	if outcome == OutcomeFailed {
		typ, inv.Status, inv.AmountPaid = stripe.EventTypeInvoicePaymentFailed, stripe.InvoiceStatusOpen, 0
	}
	return simulatedEvent(typ, created, inv)
}

// simulatedEvent wraps object in a Stripe event of type typ, as a webhook
// delivers it, with an id of its own.
func simulatedEvent(typ stripe.EventType, created time.Time, object any) (stripe.Event, error) {
	raw, err := json.Marshal(object)
	if err != nil {
		return stripe.Event{}, fmt.Errorf("encode simulated %s: %w", typ, err)
	}
	return stripe.Event{
		ID: simEvent + simToken(), Object: "event", Type: typ, Created: created.Unix(),
		APIVersion: stripe.APIVersion, Data: &stripe.EventData{Raw: raw},
	}, nil
}

// simulation implements Provider: this server drives the simulated
// provider's outcomes.
func (*Simulated) simulation() error { return nil }

// staffRefunded implements Provider: the simulated provider has no webhook
// to come, so the charge.refunded it stands in for is applied now.
func (*Simulated) staffRefunded(ctx context.Context, s *Service, accountID, pi string, amount int64, out StaffAction) (StaffAction, error) {
	return s.simulateStaffRefund(ctx, accountID, pi, amount, out)
}

// staffCancelled implements Provider: the customer.subscription.updated
// (at the period end) or .deleted (now) Stripe would send is applied now.
func (*Simulated) staffCancelled(ctx context.Context, s *Service, accountID string, a *domain.Account, subscriptionID string, atPeriodEnd bool, now time.Time, out StaffAction) (StaffAction, error) {
	customerID, err := s.customerOf(ctx, accountID)
	if err != nil {
		return StaffAction{}, err
	}
	sub := &stripe.Subscription{ID: subscriptionID, Object: "subscription", Customer: &stripe.Customer{ID: customerID},
		Status: stripe.SubscriptionStatusActive, CancelAtPeriodEnd: true, Metadata: map[string]string{metaAccountID: accountID}}
	typ := stripe.EventTypeCustomerSubscriptionUpdated
	out.Message = "Subscription cancelled: it stays active until the end of its paid period"
	if end := a.PeriodEnd(); end != nil {
		out.Message = "Subscription cancelled: it stays active until " + end.Format("January 2, 2006")
	}
	if !atPeriodEnd {
		typ, sub.Status, sub.CancelAtPeriodEnd, sub.EndedAt = stripe.EventTypeCustomerSubscriptionDeleted, stripe.SubscriptionStatusCanceled, false, now.Unix()
		out.Message = "Subscription cancelled now"
	}
	return s.applySimulatedStaffEvent(ctx, typ, now, sub, out)
}

// simulateStaffRefund applies the charge.refunded the simulated provider's
// refund of amount from PaymentIntent pi means, as Stripe would send it:
// with the charge's refunded total as the provider knows it (see
// simulatedRefundedTotal).
func (s *Service) simulateStaffRefund(ctx context.Context, accountID, pi string, amount int64, out StaffAction) (StaffAction, error) {
	in, err := s.intentOf(ctx, accountID, pi)
	if err != nil {
		return StaffAction{}, err
	}
	total, err := s.simulatedRefundedTotal(ctx, accountID, in.paymentID())
	if err != nil {
		return StaffAction{}, err
	}
	total = min(total, in.amountCents)
	out.Message = fmt.Sprintf("Refunded %s: %s of %s refunded in total", catalog.Dollars(amount), catalog.Dollars(total), catalog.Dollars(in.amountCents))
	return s.applySimulatedStaffEvent(ctx, stripe.EventTypeChargeRefunded, s.accounts.Now(), in.charge(total), out)
}

// applySimulatedStaffEvent applies object as the simulated provider's
// event typ, through the webhook's own path, and marks out applied at the
// position it reached.
func (s *Service) applySimulatedStaffEvent(ctx context.Context, typ stripe.EventType, at time.Time, object any, out StaffAction) (StaffAction, error) {
	ev, err := simulatedEvent(typ, at, object)
	if err != nil {
		return StaffAction{}, err
	}
	sim, err := s.simulate(ctx, ev, OutcomeSucceeded, eventstore.Metadata{})
	if err != nil {
		return StaffAction{}, err
	}
	out.Status, out.Position = StaffActionApplied, sim.Outcome.Result.LastPosition
	return out, nil
}
