package payments

import (
	"time"

	"github.com/a2e-automation/app/domain"
)

// Notification is what a provider reports about a payment, in the
// application's words: what happened (Kind) and the provider's objects it
// is about, with the ids and amounts the ledger needs. The Stripe adapter
// reads a webhook's event into one (ParseNotification); the simulated provider
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
	Setup        *Setup
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
	// SetupSucceeded: a card saved for auto-recharge (a SetupIntent).
	SetupSucceeded NotificationKind = "setup_succeeded"
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

// Subscription statuses a Notification reports: Stripe's words, which the
// Stripe adapter passes on as they are.
const (
	SubscriptionActive            = "active"
	SubscriptionPastDue           = "past_due"
	SubscriptionUnpaid            = "unpaid"
	SubscriptionCanceled          = "canceled"
	SubscriptionIncompleteExpired = "incomplete_expired"
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
	// Recharge is the auto-recharge the payment is for (from the
	// metadata); "" for a pack bought in the browser.
	Recharge string
	Owner    Owner
}

// Setup is a SetupIntent that saved a customer's card for off-session
// payments (auto-recharge).
type Setup struct {
	ID              string
	PaymentMethodID string // "": none attached
	// Card is the card's brand and last digits when the event carried
	// them; zero when they must be asked (Notifications.PaymentMethodCard).
	Card  domain.Card
	Owner Owner
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
