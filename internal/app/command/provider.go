package command

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stripe/stripe-go/v82"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/payments"
)

// Provider is the port the money use cases take: the payment provider with
// the storage its flows need (reservations, payment_intents, the provider's
// customers). internal/payments implements it (payments.Service) over
// either provider adapter, Stripe or the simulated one; no use case asks
// which one it is. A use case checks the rules on the account first, then
// asks the provider with no transaction open.
type Provider interface {
	PaymentStarter
	SubscriptionChanger
	EventApplier
	StaffMoney
	Simulator
	Recharger // auto-recharge (recharger.go)
}

// PaymentStarter starts what the browser pays: the monthly plan, a credit
// pack. StartPackPayment is also the shape of an off-session payment
// (auto-recharge) for a customer: the pack (credits and their price) for
// the account, its outcome reported like any other payment's.
type PaymentStarter interface {
	// SubscriptionCheckout starts the monthly plan's checkout of a.
	SubscriptionCheckout(ctx context.Context, a *domain.Account) (payments.Checkout, error)
	// CreditsCheckout starts the payment of a pack of credits at
	// amountCents for a.
	CreditsCheckout(ctx context.Context, a *domain.Account, credits, amountCents int64) (payments.Purchase, error)
}

// SubscriptionChanger cancels and resumes a subscription at the provider,
// and queues the billing mail the recorded change deserves.
type SubscriptionChanger interface {
	CancelAtProvider(ctx context.Context, accountID, subscriptionID string, now bool) error
	ResumeAtProvider(ctx context.Context, accountID, subscriptionID string) error
	QueueBillingMail(ctx context.Context, tx pgx.Tx, a *domain.Account, now time.Time) error
}

// EventApplier verifies a webhook delivery and applies its event once per
// event id.
type EventApplier interface {
	ParseWebhook(payload []byte, signature string) (stripe.Event, error)
	Apply(ctx context.Context, ev stripe.Event, md eventstore.Metadata) (payments.Outcome, error)
}

// StaffMoney is the staff console's money actions at the provider.
type StaffMoney interface {
	RefundByStaff(ctx context.Context, r payments.StaffRefund) (payments.StaffAction, error)
	CancelByStaff(ctx context.Context, r payments.StaffCancel) (payments.StaffAction, error)
}

// Simulator drives the simulated provider's outcomes in development; with
// another provider active each refuses with payments.ErrNotSimulated.
type Simulator interface {
	ConfirmSimulated(ctx context.Context, accountID, clientSecret, outcome string, md eventstore.Metadata) (payments.Simulation, error)
	AdvanceSimulatedCycle(ctx context.Context, accountID, outcome string, md eventstore.Metadata) (payments.Simulation, error)
	RefundSimulated(ctx context.Context, accountID, clientSecret string, credits *int64, md eventstore.Metadata) (payments.Simulation, error)
	DisputeSimulated(ctx context.Context, accountID, clientSecret, status string, md eventstore.Metadata) (payments.Simulation, error)
}

var _ Provider = (*payments.Service)(nil)
