// Package payments is the payment provider's side of taking money for the
// monthly plan and for credit packs: the provider adapters and the storage
// their flows need, behind the application's port (command.Provider).
//
// A Provider creates what the browser confirms (a customer, a subscription
// waiting for its first payment, a PaymentIntent): Stripe, or in development
// without keys the Simulated provider. The Service records nothing when a
// checkout starts; the ledger changes only when the provider reports an
// outcome as a Stripe event (a signed webhook, or the simulated provider's
// stand-in built in the same shape), read into a provider-neutral
// Notification. What a notification means for the account is the
// application's use case (internal/app/command), which records it once per
// event id through Service.Record.
//
// See docs/payments.md for the flow, idempotency and out-of-order delivery.
package payments

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
)

// Provider names, as GET /api/config reports them.
const (
	ProviderStripe    = "stripe"
	ProviderSimulated = "simulated"
)

// Payment kinds of a checkout, stored in payment_intents.kind and, for
// credit purchases, in the PaymentIntent's metadata.
const (
	KindSubscription = domain.PaymentKindSubscription
	KindCredits      = domain.PaymentKindCredits
)

// Metadata keys set on the provider's objects.
const (
	metaAccountID = "account_id"
	metaKind      = "kind"
	metaCredits   = "credits"
)

// Provider creates the objects a checkout needs at the payment provider.
type Provider interface {
	// Name is ProviderStripe or ProviderSimulated.
	Name() string
	// CreateCustomer creates the provider's customer of an account.
	CreateCustomer(ctx context.Context, c CustomerRequest) (customerID string, err error)
	// CreateSubscription creates a monthly plan subscription whose first
	// invoice waits for the browser to pay it.
	CreateSubscription(ctx context.Context, s SubscriptionRequest) (Checkout, error)
	// CreatePaymentIntent creates the payment of a credit pack.
	CreatePaymentIntent(ctx context.Context, p PaymentIntentRequest) (Checkout, error)
	// CancelAtPeriodEnd stops a subscription from renewing.
	CancelAtPeriodEnd(ctx context.Context, subscriptionID, idempotencyKey string) error
	// Resume undoes CancelAtPeriodEnd before the period ends.
	Resume(ctx context.Context, subscriptionID, idempotencyKey string) error
	// CancelNow ends a past due subscription at once.
	CancelNow(ctx context.Context, subscriptionID, idempotencyKey string) error
	// VoidUnpaid cancels a subscription whose first invoice was never paid
	// (its invoice is voided), replaced by a newer checkout. It reports
	// false, cancelling nothing, when the subscription was paid meanwhile.
	VoidUnpaid(ctx context.Context, subscriptionID, idempotencyKey string) (voided bool, err error)
	// PortalURL is where the seller manages billing: Stripe's Billing
	// Portal session, or the simulated provider's page.
	PortalURL(ctx context.Context, p PortalRequest) (string, error)
	// InvoiceOfPaymentIntent is the invoice a PaymentIntent paid ("" for
	// none known): how a refunded or disputed renewal finds its cycle.
	InvoiceOfPaymentIntent(ctx context.Context, paymentIntentID string) (string, error)
	// ChargeOwner is what a charge says about its payment: how a dispute,
	// whose charge Stripe sends as an id, finds its account.
	ChargeOwner(ctx context.Context, chargeID string) (ChargeOwner, error)
	// PaymentIntentOfInvoice is the PaymentIntent that paid an invoice (""
	// for none known): what a staff refund of a renewal refunds.
	PaymentIntentOfInvoice(ctx context.Context, invoiceID string) (string, error)
	// Refund refunds part or all of a PaymentIntent's charge and returns
	// the refund's id; the ledger changes when its charge.refunded arrives.
	Refund(ctx context.Context, r RefundRequest) (refundID string, err error)
	// BrowserSources are the origins the browser loads from and talks to
	// for this provider's checkout, for the Content-Security-Policy.
	BrowserSources() BrowserSources
	// reporting: how the provider's outcomes reach the ledger, which each
	// adapter answers in its own file.
	reporting
	// recharging: saved cards and off-session charges (recharge.go).
	recharging
}

// reporting is how a provider's outcomes reach the ledger. Stripe reports
// by webhook, later; the simulated provider reports at once the event
// Stripe would send (the command's Report applies it), and confirms its
// checkouts by their client secret. The Service never asks which provider it has: it asks these.
type reporting interface {
	// simulation is nil when this server drives the provider's outcomes
	// (command.ConfirmSimulatedPayment and the other development flows), else
	// ErrNotSimulated.
	simulation() error
	// staffRefunded follows a staff refund of amountCents of PaymentIntent
	// paymentIntentID that the provider took and the reservation recorded:
	// out as the console answers it.
	staffRefunded(ctx context.Context, s *Service, r StaffRefund, paymentIntentID string, amountCents int64, out StaffAction) (StaffAction, error)
	// staffCancelled follows a staff cancellation r of a's subscription
	// subscriptionID that the provider took and the reservation recorded:
	// out as the console answers it.
	staffCancelled(ctx context.Context, s *Service, r StaffCancel, a *domain.Account, subscriptionID string, now time.Time, out StaffAction) (StaffAction, error)
}

// BrowserSources are a provider's sources in a Content-Security-Policy's
// directives (space-separated origins); "" adds none.
type BrowserSources struct {
	Script, Frame, Connect, Img string
}

// ChargeOwner is a charge's PaymentIntent, customer and metadata (copied
// from its PaymentIntent's).
type ChargeOwner struct {
	PaymentIntentID, CustomerID string
	Metadata                    map[string]string
}

// RefundRequest asks for a refund of AmountCents of a PaymentIntent.
type RefundRequest struct {
	AccountID       string
	PaymentIntentID string
	AmountCents     int64
	IdempotencyKey  string // the reservation's: a retry refunds once
}

// PortalRequest asks for a billing portal session of a customer.
type PortalRequest struct {
	CustomerID string
	ReturnURL  string // where the portal's "return" link goes
	BaseURL    string // the app's address (APP_BASE_URL), for the simulated portal
}

// CustomerRequest describes the customer of an account.
type CustomerRequest struct {
	AccountID, Email string
}

// SubscriptionRequest asks for a monthly plan subscription.
type SubscriptionRequest struct {
	AccountID, CustomerID string
	IdempotencyKey        string // the reservation's: a retry gets the same subscription
}

// PaymentIntentRequest asks for the payment of Credits credits.
type PaymentIntentRequest struct {
	AccountID, CustomerID string
	Credits, AmountCents  int64
	IdempotencyKey        string // the reservation's: a retry gets the same PaymentIntent
}

// Checkout is a payment waiting for the browser: the client secret it
// confirms with, and the provider's ids behind it.
type Checkout struct {
	PaymentIntentID string
	ClientSecret    string
	SubscriptionID  string // subscriptions only
	InvoiceID       string // subscriptions only: the first invoice
}

// intentMetadata is the metadata of a credit purchase's PaymentIntent: the
// webhook grants from it.
func intentMetadata(accountID string, credits int64) map[string]string {
	return map[string]string{metaAccountID: accountID, metaKind: KindCredits, metaCredits: strconv.FormatInt(credits, 10)}
}

// NewProvider picks the provider: Stripe when stripe's secret key is set,
// else the simulated provider when simulatedAllowed (development).
// Production refuses to start without Stripe keys (see config), and so does
// this.
func NewProvider(stripe StripeConfig, simulatedAllowed bool) (Provider, error) {
	switch {
	case stripe.SecretKey != "" && stripe.PriceID == "":
		return nil, errors.New("STRIPE_PRICE_ID is required with STRIPE_SECRET_KEY")
	case stripe.SecretKey != "":
		return NewStripe(stripe), nil
	case simulatedAllowed:
		return NewSimulated(), nil
	}
	return nil, errors.New("STRIPE_SECRET_KEY is required outside development")
}

// Service is the provider's side of the payment flows (command.Provider):
// it calls the active Provider with no transaction open, keeps the rows
// its calls need (reservations, checkouts, customers, staff requests), and
// records an account's change beside them (Record). What a payment,
// refund, dispute or cancellation means for the account is the use cases'.
type Service struct {
	pool          *pgxpool.Pool
	accounts      *accounts.Repository
	provider      Provider
	webhookSecret string
	log           *slog.Logger
	productName   string // names the billing mails
	baseURL       string // APP_BASE_URL: links in mails, the portal's return
	mailQueued    func() // wakes the mail sender after a commit that queued mail
}

// NewService returns a Service; webhookSecret verifies Stripe's webhooks
// (empty: every webhook is refused).
func NewService(pool *pgxpool.Pool, repo *accounts.Repository, provider Provider, webhookSecret string, log *slog.Logger, opts ...Option) *Service {
	s := &Service{pool: pool, accounts: repo, provider: provider, webhookSecret: webhookSecret, log: log,
		productName: "Amazon to eBay Automation", baseURL: "http://localhost:8080", mailQueued: func() {}}
	for _, o := range opts {
		o(s)
	}
	return s
}

// ProviderName is the active provider, ProviderStripe or ProviderSimulated.
func (s *Service) ProviderName() string { return s.provider.Name() }

// BrowserSources are the active provider's sources for the
// Content-Security-Policy.
func (s *Service) BrowserSources() BrowserSources { return s.provider.BrowserSources() }

// Simulation is nil when the active provider's outcomes are driven by this
// server (the simulated provider's development routes), else
// ErrNotSimulated.
func (s *Service) Simulation() error { return s.provider.simulation() }
