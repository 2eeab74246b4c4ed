package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/payments"
)

// Provider is the port the money use cases take: the payment provider's
// adapter (Stripe, or the simulated one) with the storage its flows need
// (reservations, payment_intents, the provider's customers). The rules of
// what a payment, refund, dispute or cancellation means for the account
// live in the use cases; the port answers look-ups, calls the provider
// with no transaction open, and records its rows beside the account's
// events (Record). No use case asks which provider it is: it asks the
// port. internal/payments implements it (payments.Service).
type Provider interface {
	PaymentStarter
	SubscriptionChanger
	BillingPortal
	Notifications
	StaffMoney
	Simulator
	Recharger // auto-recharge (recharger.go)
}

// PaymentStarter starts what the browser pays: the monthly plan, a credit
// pack. CreditsCheckout is also the shape of an off-session payment
// (auto-recharge) for a customer: the pack (credits and their price) for
// the account, its outcome reported like any other payment's.
type PaymentStarter interface {
	// SubscriptionCheckout starts the monthly plan's checkout of a.
	SubscriptionCheckout(ctx context.Context, a *domain.Account) (payments.Checkout, error)
	// CreditsCheckout starts the payment of a pack of credits at
	// amountCents for a.
	CreditsCheckout(ctx context.Context, a *domain.Account, credits, amountCents int64) (payments.Purchase, error)
}

// BillingPortal is where a seller manages billing at the provider.
type BillingPortal interface {
	PortalURL(ctx context.Context, accountID string) (string, error)
}

// AccountRecorder runs a change of one account and records, in its
// transaction, what the provider's storage keeps of it (the checkout it
// settles, the staff requests it applies, the billing mails its events
// deserve). The change's decision sees the account, never the transaction.
type AccountRecorder interface {
	Record(ctx context.Context, c payments.AccountChange) (eventstore.Result, error)
}

// SubscriptionChanger cancels and resumes a subscription at the provider;
// the use case records the change (AccountRecorder).
type SubscriptionChanger interface {
	AccountRecorder
	CancelAtProvider(ctx context.Context, accountID, subscriptionID string, now bool) error
	ResumeAtProvider(ctx context.Context, accountID, subscriptionID string) error
}

// Notifications reads what the provider reports (a verified webhook, in
// provider-neutral words) and answers the look-ups that decide what it
// means for an account.
type Notifications interface {
	AccountRecorder
	// ParseNotification verifies a webhook delivery; a refusal matches
	// payments.ErrInvalidWebhook.
	ParseNotification(payload []byte, signature string) (payments.Notification, error)
	// AccountOf is the account a provider object belongs to; "" for none.
	AccountOf(ctx context.Context, o payments.Owner) (string, error)
	// CheckoutVoided: the checkout of invoiceID was replaced by a newer
	// one, so its payment grants nothing.
	CheckoutVoided(ctx context.Context, invoiceID string) (bool, error)
	// PaymentOf and DisputedPayment find the ledger payment a charge or a
	// dispute is about; ok is false when none is known.
	PaymentOf(ctx context.Context, paymentIntentID string, o payments.Owner) (payments.PaymentRef, bool, error)
	DisputedPayment(ctx context.Context, d *payments.Dispute) (payments.PaymentRef, bool, error)
	// StaffRefunds and StaffCancellation are the console requests a
	// notification applies (their staff members and reasons).
	StaffRefunds(ctx context.Context, accountID, paymentID string, refundedBefore, total int64) (*payments.Attribution, error)
	StaffCancellation(ctx context.Context, accountID, subscriptionID string, immediately bool) (*payments.Attribution, error)
	// PaymentMethodCard is a saved card's brand and last digits, asked of
	// the provider when its notification did not carry them.
	PaymentMethodCard(ctx context.Context, paymentMethodID string) (domain.Card, error)
}

// StaffMoney is the staff console's money actions at the provider: each
// claimed once per request, asked with no transaction open, its answer
// and audit line recorded together.
type StaffMoney interface {
	RefundByStaff(ctx context.Context, r payments.StaffRefund) (payments.StaffAction, error)
	CancelByStaff(ctx context.Context, r payments.StaffCancel) (payments.StaffAction, error)
}

// Simulator is the simulated provider's development stand-ins: it finds
// its checkouts and builds the notification Stripe would send for a step,
// which the use case applies like a webhook's. With another provider
// active each refuses with payments.ErrNotSimulated.
type Simulator interface {
	Simulation() error
	SimulatedPayment(ctx context.Context, accountID, clientSecret string) (payments.SimulatedPayment, error)
	SimulatePayment(p payments.SimulatedPayment, paid bool, now time.Time) (payments.Notification, error)
	SimulateRenewal(ctx context.Context, accountID, subscriptionID string, start time.Time, paid bool) (payments.Notification, error)
	SimulateEnd(ctx context.Context, accountID, subscriptionID string, ends time.Time) (payments.Notification, error)
	SimulateRefund(p payments.SimulatedPayment, refundedTotal int64, at time.Time) (payments.Notification, error)
	SimulateDispute(p payments.SimulatedPayment, status string, at time.Time) (payments.Notification, error)
	// Auto-recharge's: a recharge's charge as the payment_intent event
	// (ok false: nothing to report yet), and a saved card's SetupIntent.
	SimulateRecharge(ctx context.Context, accountID, rechargeID string, credits int64, out payments.RechargeOutcome, now time.Time) (payments.Notification, bool, error)
	SimulatedSetup(ctx context.Context, accountID, clientSecret string) (payments.SimulatedSetupIntent, error)
	FailSimulatedSetup(ctx context.Context, si payments.SimulatedSetupIntent) error
	SimulateSetup(si payments.SimulatedSetupIntent, outcome string, now time.Time) (payments.Notification, error)
}

var _ Provider = (*payments.Service)(nil)
