package payments

// The Stripe adapter's reading of an event into a Notification: the only
// place that knows Stripe's event types and objects beside stripe.go.

import (
	"fmt"
	"strconv"
	"time"

	"github.com/stripe/stripe-go/v82"

	"github.com/a2e-automation/app/domain"
)

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
	stripe.EventTypeSetupIntentSucceeded:        readSetupIntent, // a card saved for auto-recharge
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
		Recharge: pi.Metadata[metaRecharge], Owner: ownerOf(pi.Customer, pi.Metadata)}
	return nil
}

func readSetupIntent(ev stripe.Event, n *Notification) error {
	var si stripe.SetupIntent
	if err := decodeObject(ev, &si, "setup intent"); err != nil {
		return err
	}
	n.Kind = SetupSucceeded
	n.Setup = &Setup{ID: si.ID, Owner: ownerOf(si.Customer, si.Metadata)}
	if pm := si.PaymentMethod; pm != nil {
		n.Setup.PaymentMethodID = pm.ID
		if pm.Card != nil {
			n.Setup.Card = domain.Card{Brand: string(pm.Card.Brand), Last4: pm.Card.Last4}
		}
	}
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
