package payments

import (
	"fmt"
	"strconv"
	"time"

	"github.com/stripe/stripe-go/v82"
)

// Notification is what a provider reports about a payment, in the
// application's words: what happened (Kind) and the provider's objects it
// is about, with the ids and amounts the ledger needs. The Stripe adapter
// reads a webhook's event into one (ParseWebhook); the simulated provider
// builds the event Stripe would send and reads it the same way, so both
// reach the ledger on one path (command.ApplyStripeEvent).
type Notification struct {
	ID      string // the provider's event id: the ledger applies each once
	Type    string // the provider's event type, for logs and answers ("invoice.paid")
	Kind    NotificationKind
	Created time.Time
	Hash    string // identifies the event's content: a reused id with another is refused

	// One of these, as Kind says.
	Invoice      *Invoice
	Subscription *Subscription
	Payment      *Payment
	Charge       *Charge
	Dispute      *Dispute
}

// NotificationKind is what a Notification reports. "" is an event the
// ledger does not handle.
type NotificationKind string

// Kinds of Notification.
const (
	InvoicePaid         NotificationKind = "invoice_paid"
	InvoiceFailed       NotificationKind = "invoice_failed"
	SubscriptionUpdated NotificationKind = "subscription_updated"
	SubscriptionDeleted NotificationKind = "subscription_deleted"
	PaymentSucceeded    NotificationKind = "payment_succeeded"
	PaymentFailed       NotificationKind = "payment_failed"
	ChargeRefunded      NotificationKind = "charge_refunded"
	RefundCreated       NotificationKind = "refund_created"
	DisputeCreated      NotificationKind = "dispute_created"
	DisputeClosed       NotificationKind = "dispute_closed"
)

// Owner is whose a provider object is and what it pays for: its customer
// and, from its metadata, the account and the kind of payment.
type Owner struct {
	CustomerID string
	AccountID  string // from the metadata; "" for none
	Kind       string // KindCredits for a credit pack's objects; "" unknown
}

// Invoice is a subscription's invoice.
type Invoice struct {
	ID             string
	SubscriptionID string // "": not a subscription's invoice
	// PeriodStart to PeriodEnd is the billing period it pays; HasPeriod is
	// false when it names none.
	PeriodStart, PeriodEnd time.Time
	HasPeriod              bool
	AmountPaid, AmountDue  int64
	HostedURL              string
	Owner                  Owner
}

// Subscription statuses a Notification reports.
const (
	SubscriptionActive            = string(stripe.SubscriptionStatusActive)
	SubscriptionPastDue           = string(stripe.SubscriptionStatusPastDue)
	SubscriptionUnpaid            = string(stripe.SubscriptionStatusUnpaid)
	SubscriptionCanceled          = string(stripe.SubscriptionStatusCanceled)
	SubscriptionIncompleteExpired = string(stripe.SubscriptionStatusIncompleteExpired)
)

// Subscription is a subscription's new state.
type Subscription struct {
	ID     string
	Status string // one of the Subscription* statuses, or another the ledger waits on
	// Cancelling: set to end (at its period end or a set time).
	Cancelling bool
	PeriodEnd  time.Time // the latest current period end among its items
	Owner      Owner
}

// Payment is a one-off payment (a PaymentIntent).
type Payment struct {
	ID          string
	AmountCents int64
	Currency    string
	Credits     int64 // from the metadata; 0 when it names no count
	Owner       Owner
}

// Charge is a charge of a payment and how much of it is refunded in all.
type Charge struct {
	ID              string
	PaymentIntentID string
	AmountRefunded  int64
	Owner           Owner
	// Known: the charge came with its customer or metadata, not as a bare
	// id (Stripe sends a dispute's charge as its id).
	Known bool
}

// Dispute is a card dispute of a charge.
type Dispute struct {
	ID              string
	AmountCents     int64
	PaymentIntentID string
	Lost            bool    // closed and lost
	Charge          *Charge // nil: none named
}

// notificationOf reads a Stripe event into a Notification. An object that
// does not parse is refused as a malformed webhook (ErrInvalidWebhook, 400).
func notificationOf(ev stripe.Event) (Notification, error) {
	n := Notification{ID: ev.ID, Type: string(ev.Type), Created: time.Unix(ev.Created, 0).UTC()}
	read, ok := readers[ev.Type]
	if !ok || ev.Data == nil {
		return n, nil // Kind "": not handled
	}
	n.Hash = eventHash(ev)
	if err := read(ev, &n); err != nil {
		return Notification{}, fmt.Errorf("%s %s: %w", ev.Type, ev.ID, err)
	}
	return n, nil
}

// readers read one kind of Stripe event into a Notification.
var readers = map[stripe.EventType]func(stripe.Event, *Notification) error{
	stripe.EventTypeInvoicePaid:                 readInvoice,
	stripe.EventTypeInvoicePaymentFailed:        readInvoice,
	stripe.EventTypeCustomerSubscriptionUpdated: readSubscription,
	stripe.EventTypeCustomerSubscriptionDeleted: readSubscription,
	stripe.EventTypePaymentIntentSucceeded:      readPaymentIntent,
	stripe.EventTypePaymentIntentPaymentFailed:  readPaymentIntent,
	stripe.EventTypeChargeRefunded:              readCharge,
	stripe.EventTypeRefundCreated:               func(_ stripe.Event, n *Notification) error { n.Kind = RefundCreated; return nil },
	stripe.EventTypeChargeDisputeCreated:        readDispute,
	stripe.EventTypeChargeDisputeFundsWithdrawn: readDispute,
	stripe.EventTypeChargeDisputeClosed:         readDispute,
}

func ownerOf(customer *stripe.Customer, metadata map[string]string) Owner {
	o := Owner{AccountID: metadata[metaAccountID], Kind: metadata[metaKind]}
	if customer != nil {
		o.CustomerID = customer.ID
	}
	return o
}

func readInvoice(ev stripe.Event, n *Notification) error {
	var inv stripe.Invoice
	if err := decodeObject(ev, &inv, "invoice"); err != nil {
		return err
	}
	n.Kind = InvoiceFailed
	if ev.Type == stripe.EventTypeInvoicePaid {
		n.Kind = InvoicePaid
	}
	in := &Invoice{ID: inv.ID, AmountPaid: inv.AmountPaid, AmountDue: inv.AmountDue, HostedURL: inv.HostedInvoiceURL}
	if inv.Parent != nil && inv.Parent.SubscriptionDetails != nil && inv.Parent.SubscriptionDetails.Subscription != nil {
		details := inv.Parent.SubscriptionDetails
		in.SubscriptionID = details.Subscription.ID
		in.Owner = ownerOf(inv.Customer, details.Metadata)
	}
	in.PeriodStart, in.PeriodEnd, in.HasPeriod = invoicePeriod(&inv)
	n.Invoice = in
	return nil
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

func readSubscription(ev stripe.Event, n *Notification) error {
	var sub stripe.Subscription
	if err := decodeObject(ev, &sub, "subscription"); err != nil {
		return err
	}
	n.Kind = SubscriptionUpdated
	if ev.Type == stripe.EventTypeCustomerSubscriptionDeleted {
		n.Kind = SubscriptionDeleted
	}
	n.Subscription = &Subscription{ID: sub.ID, Status: string(sub.Status), Cancelling: sub.CancelAtPeriodEnd || sub.CancelAt != 0,
		PeriodEnd: subscriptionPeriodEnd(&sub), Owner: ownerOf(sub.Customer, sub.Metadata)}
	return nil
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

func readPaymentIntent(ev stripe.Event, n *Notification) error {
	var pi stripe.PaymentIntent
	if err := decodeObject(ev, &pi, "payment intent"); err != nil {
		return err
	}
	n.Kind = PaymentFailed
	if ev.Type == stripe.EventTypePaymentIntentSucceeded {
		n.Kind = PaymentSucceeded
	}
	credits, _ := strconv.ParseInt(pi.Metadata[metaCredits], 10, 64) // not a count: 0 or out of range, refused by the ledger's rule
	n.Payment = &Payment{ID: pi.ID, AmountCents: pi.Amount, Currency: string(pi.Currency), Credits: credits,
		Owner: ownerOf(pi.Customer, pi.Metadata)}
	return nil
}

func readCharge(ev stripe.Event, n *Notification) error {
	var ch stripe.Charge
	if err := decodeObject(ev, &ch, "charge"); err != nil {
		return err
	}
	n.Kind = ChargeRefunded
	n.Charge = chargeOf(&ch)
	return nil
}

func chargeOf(ch *stripe.Charge) *Charge {
	c := &Charge{ID: ch.ID, AmountRefunded: ch.AmountRefunded, Owner: ownerOf(ch.Customer, ch.Metadata),
		Known: ch.Customer != nil || ch.Metadata != nil}
	if ch.PaymentIntent != nil {
		c.PaymentIntentID = ch.PaymentIntent.ID
	}
	return c
}

func readDispute(ev stripe.Event, n *Notification) error {
	var dp stripe.Dispute
	if err := decodeObject(ev, &dp, "dispute"); err != nil {
		return err
	}
	n.Kind = DisputeCreated
	if ev.Type == stripe.EventTypeChargeDisputeClosed {
		n.Kind = DisputeClosed
	}
	d := &Dispute{ID: dp.ID, AmountCents: dp.Amount, Lost: dp.Status == stripe.DisputeStatusLost}
	if dp.PaymentIntent != nil {
		d.PaymentIntentID = dp.PaymentIntent.ID
	}
	if dp.Charge != nil {
		d.Charge = chargeOf(dp.Charge)
	}
	n.Dispute = d
	return nil
}
