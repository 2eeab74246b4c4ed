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
	"github.com/a2e-automation/app/internal/catalog"
)

// Simulated is the development Provider: ids and client secrets of its own,
// no network. Its payments are confirmed and its subscriptions renewed by
// the development commands (command.ConfirmSimulatedPayment,
// AdvanceSimulatedCycle), which apply the Stripe event a webhook would
// bring (SimulatePayment, SimulateRenewal).
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

// BrowserSources implements Provider: the simulated checkout is this
// server's own page; nothing outside this origin is needed.
func (*Simulated) BrowserSources() BrowserSources { return BrowserSources{} }

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
// command.ConfirmSimulatedPayment, which records it at once, so an unpaid one is voidable.
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

// Errors of the simulated flows, in words a developer can act on.
var (
	ErrNotSimulated     = domain.Errorf(domain.CodeNotFound, "The simulated payment provider is not active")
	ErrUnknownPayment   = domain.Errorf(domain.CodeNotFound, "No such payment")
	ErrAlreadyConfirmed = domain.Errorf(domain.CodeConflict, "This payment has already been confirmed")
	ErrNothingToRenew   = domain.Errorf(domain.CodeConflict, "No active subscription to renew")
	ErrNotSimulatedSub  = domain.Errorf(domain.CodeConflict, "This subscription does not belong to the simulated provider")
	ErrCheckoutReplaced = domain.Errorf(domain.CodeConflict, "This checkout was replaced by a newer one. Please start the payment again.")
)

// SimulatedPayment is a checkout of the simulated provider: what its
// confirmation, refund and dispute are about.
type SimulatedPayment struct {
	AccountID, PaymentIntentID, Kind string
	// PaymentID is the ledger's id of it: the invoice of a subscription,
	// the PaymentIntent of a credit pack.
	PaymentID            string
	Credits, AmountCents int64
	Paid, Voided         bool   // confirmed as paid; replaced by a newer checkout
	DisputeID            string // the id its simulated dispute has
	in                   intent
}

// SimulatedPayment finds accountID's simulated payment of clientSecret, or
// ErrUnknownPayment (another account's secret included); ErrNotSimulated
// when another provider is active.
func (s *Service) SimulatedPayment(ctx context.Context, accountID, clientSecret string) (SimulatedPayment, error) {
	if err := s.provider.simulation(); err != nil {
		return SimulatedPayment{}, err
	}
	in, err := s.simulatedIntent(ctx, accountID, clientSecret)
	if err != nil {
		return SimulatedPayment{}, err
	}
	return SimulatedPayment{AccountID: accountID, PaymentIntentID: in.id, Kind: in.kind, PaymentID: in.paymentID(),
		Credits: in.credits, AmountCents: in.amountCents, Paid: in.status == intentSucceeded, Voided: in.status == intentVoided,
		DisputeID: "dp_sim_" + strings.TrimPrefix(in.id, simIntent), in: in}, nil
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

// SimulatePayment is what Stripe reports when the browser confirms p, paid
// or declined, at now: a credit pack's payment_intent.succeeded or
// .payment_failed; a subscription's first invoice.paid or
// .payment_failed, which pays the month from now.
func (s *Service) SimulatePayment(p SimulatedPayment, paid bool, now time.Time) (Notification, error) {
	if p.Kind == KindCredits {
		return p.in.paymentIntentEvent(paid, now)
	}
	return p.in.invoiceEvent(paid, now, now.AddDate(0, 1, 0), now)
}

// SimulateRenewal is Stripe's next invoice.paid (paid) or
// .payment_failed of accountID's simulated subscription subscriptionID,
// for the month from start, created at start. ErrNotSimulatedSub: another
// provider's subscription.
func (s *Service) SimulateRenewal(ctx context.Context, accountID, subscriptionID string, start time.Time, paid bool) (Notification, error) {
	token, customerID, err := s.simulatedSubscription(ctx, accountID, subscriptionID)
	if err != nil {
		return Notification{}, err
	}
	plan := catalog.MonthlyPlan()
	in := intent{
		accountID: accountID, customerID: customerID, kind: KindSubscription, credits: plan.Credits,
		amountCents: plan.PriceCents, currency: catalog.Currency, subscriptionID: subscriptionID,
		invoiceID: simInvoice + token + "_" + strconv.FormatInt(start.Unix(), 10),
	}
	return in.invoiceEvent(paid, start, start.AddDate(0, 1, 0), start)
}

// SimulateEnd is Stripe's customer.subscription.deleted of accountID's
// simulated subscription subscriptionID at ends, its period's end.
func (s *Service) SimulateEnd(ctx context.Context, accountID, subscriptionID string, ends time.Time) (Notification, error) {
	_, customerID, err := s.simulatedSubscription(ctx, accountID, subscriptionID)
	if err != nil {
		return Notification{}, err
	}
	return simulatedEvent(stripe.EventTypeCustomerSubscriptionDeleted, ends, &stripe.Subscription{
		ID: subscriptionID, Object: "subscription", Customer: &stripe.Customer{ID: customerID},
		Status: stripe.SubscriptionStatusCanceled, EndedAt: ends.Unix(), Metadata: map[string]string{metaAccountID: accountID},
	})
}

// simulatedSubscription is the token and customer of accountID's simulated
// subscription subscriptionID.
func (s *Service) simulatedSubscription(ctx context.Context, accountID, subscriptionID string) (token, customerID string, err error) {
	if err := s.provider.simulation(); err != nil {
		return "", "", err
	}
	token, ok := strings.CutPrefix(subscriptionID, simSubscription)
	if !ok {
		return "", "", ErrNotSimulatedSub
	}
	customerID, err = s.customerOf(ctx, accountID)
	return token, customerID, err
}

// DeclineMessage is what a simulated declined card says, as Stripe's test
// card 4000 0000 0000 0002 does.
const DeclineMessage = "Your card was declined."

// intent is a simulated payment and whose it is.
type intent struct {
	id, accountID, customerID, kind, currency, subscriptionID, invoiceID, status string
	credits, amountCents                                                         int64
}

// paymentIntentEvent is the payment_intent.succeeded or
// .payment_failed event of a credit purchase, created at created.
func (in intent) paymentIntentEvent(paid bool, created time.Time) (Notification, error) {
	pi := &stripe.PaymentIntent{
		ID: in.id, Object: "payment_intent", Amount: in.amountCents, Currency: stripe.Currency(in.currency),
		Customer: &stripe.Customer{ID: in.customerID}, Metadata: intentMetadata(in.accountID, in.credits),
		Description: catalog.CreditsDescription(in.credits), Created: created.Unix(),
		Status: stripe.PaymentIntentStatusSucceeded, AmountReceived: in.amountCents,
	}
	typ := stripe.EventTypePaymentIntentSucceeded
	if !paid {
		typ, pi.Status, pi.AmountReceived = stripe.EventTypePaymentIntentPaymentFailed, stripe.PaymentIntentStatusRequiresPaymentMethod, 0
		pi.LastPaymentError = &stripe.Error{Type: stripe.ErrorTypeCard, Code: stripe.ErrorCodeCardDeclined, Msg: DeclineMessage}
	}
	return simulatedEvent(typ, created, pi)
}

// invoiceEvent is the invoice.paid or .payment_failed event of the
// subscription invoice for start to end, created at created.
func (in intent) invoiceEvent(paid bool, start, end, created time.Time) (Notification, error) {
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
	if !paid {
		typ, inv.Status, inv.AmountPaid = stripe.EventTypeInvoicePaymentFailed, stripe.InvoiceStatusOpen, 0
	}
	return simulatedEvent(typ, created, inv)
}

// simulatedEvent wraps object in a Stripe event of type typ, as a webhook
// delivers it, with an id of its own, and reads it as ParseNotification
// reads a webhook's.
func simulatedEvent(typ stripe.EventType, created time.Time, object any) (Notification, error) {
	raw, err := json.Marshal(object)
	if err != nil {
		return Notification{}, fmt.Errorf("encode simulated %s: %w", typ, err)
	}
	return notificationOf(stripe.Event{
		ID: simEvent + simToken(), Object: "event", Type: typ, Created: created.Unix(),
		APIVersion: stripe.APIVersion, Data: &stripe.EventData{Raw: raw},
	})
}

// simulation implements Provider: this server drives the simulated
// provider's outcomes.
func (*Simulated) simulation() error { return nil }

// staffRefunded implements Provider: the simulated provider has no webhook
// to come, so it reports the charge.refunded it stands in for now, as
// Stripe would send it: with the charge's refunded total as the provider
// knows it (see simulatedRefundedTotal).
func (*Simulated) staffRefunded(ctx context.Context, s *Service, r StaffRefund, pi string, amount int64, out StaffAction) (StaffAction, error) {
	in, err := s.intentOf(ctx, r.AccountID, pi)
	if err != nil {
		return StaffAction{}, err
	}
	total, err := s.simulatedRefundedTotal(ctx, r.AccountID, in.paymentID())
	if err != nil {
		return StaffAction{}, err
	}
	total = min(total, in.amountCents)
	out.Message = fmt.Sprintf("Refunded %s: %s of %s refunded in total", catalog.Dollars(amount), catalog.Dollars(total), catalog.Dollars(in.amountCents))
	return reportNow(ctx, r.Report, stripe.EventTypeChargeRefunded, s.accounts.Now(), in.charge(total), out)
}

// staffCancelled implements Provider: the customer.subscription.updated
// (at the period end) or .deleted (now) Stripe would send is reported now.
func (*Simulated) staffCancelled(ctx context.Context, s *Service, r StaffCancel, a *domain.Account, subscriptionID string, now time.Time, out StaffAction) (StaffAction, error) {
	customerID, err := s.customerOf(ctx, r.AccountID)
	if err != nil {
		return StaffAction{}, err
	}
	sub := &stripe.Subscription{ID: subscriptionID, Object: "subscription", Customer: &stripe.Customer{ID: customerID},
		Status: stripe.SubscriptionStatusActive, CancelAtPeriodEnd: true, Metadata: map[string]string{metaAccountID: r.AccountID}}
	typ := stripe.EventTypeCustomerSubscriptionUpdated
	out.Message = "Subscription cancelled: it stays active until the end of its paid period"
	if end := a.PeriodEnd(); end != nil {
		out.Message = "Subscription cancelled: it stays active until " + end.Format("January 2, 2006")
	}
	if !r.AtPeriodEnd {
		typ, sub.Status, sub.CancelAtPeriodEnd, sub.EndedAt = stripe.EventTypeCustomerSubscriptionDeleted, stripe.SubscriptionStatusCanceled, false, now.Unix()
		out.Message = "Subscription cancelled now"
	}
	return reportNow(ctx, r.Report, typ, now, sub, out)
}

// reportNow has report apply object as the simulated provider's event typ,
// on the webhook's own path, and marks out applied at the position it
// reached.
func reportNow(ctx context.Context, report Report, typ stripe.EventType, at time.Time, object any, out StaffAction) (StaffAction, error) {
	n, err := simulatedEvent(typ, at, object)
	if err != nil {
		return StaffAction{}, err
	}
	if report == nil {
		return StaffAction{}, fmt.Errorf("simulated %s: nothing applies it", typ)
	}
	if out.Position, err = report(ctx, n); err != nil {
		return StaffAction{}, err
	}
	out.Status = StaffActionApplied
	return out, nil
}
