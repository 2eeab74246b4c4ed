package payments

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/stripe/stripe-go/v82"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/catalog"
)

// StripeConfig configures the Stripe provider.
type StripeConfig struct {
	SecretKey string
	PriceID   string // the monthly plan's recurring price
	APIBase   string // another API address (stripe-mock); empty: Stripe's
	// Timeout bounds one HTTP attempt (STRIPE_TIMEOUT); default 5 s.
	Timeout time.Duration
	// MaxRetries is how many times a failed attempt is retried
	// (STRIPE_MAX_RETRIES), with the same idempotency key.
	MaxRetries int
	// HTTPClient carries the requests (tests record them); nil: a plain
	// client. Its Timeout is set to Timeout.
	HTTPClient *http.Client
}

// Stripe is the Provider on Stripe's API, through stripe-go's client.
type Stripe struct {
	client  *stripe.Client
	priceID string
	budget  time.Duration // the longest one call may take, retries included
}

// DefaultStripeTimeout bounds one attempt when STRIPE_TIMEOUT is unset.
const DefaultStripeTimeout = 5 * time.Second

// NewStripe returns the Stripe provider. stripe-go logs nothing: its errors
// come back to the caller, and requests may carry secrets.
func NewStripe(cfg StripeConfig) *Stripe {
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultStripeTimeout
	}
	client := &http.Client{}
	if cfg.HTTPClient != nil {
		c := *cfg.HTTPClient
		client = &c
	}
	client.Timeout = timeout
	backend := &stripe.BackendConfig{
		HTTPClient:        client,
		MaxNetworkRetries: stripe.Int64(int64(cfg.MaxRetries)),
		LeveledLogger:     &stripe.LeveledLogger{Level: stripe.LevelNull},
	}
	if cfg.APIBase != "" {
		backend.URL = stripe.String(cfg.APIBase)
	}
	return &Stripe{
		client:  stripe.NewClient(cfg.SecretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(backend))),
		priceID: cfg.PriceID,
		// Each attempt, plus stripe-go's back-off between them (at most 5 s).
		budget: time.Duration(cfg.MaxRetries+1)*timeout + time.Duration(cfg.MaxRetries)*5*time.Second,
	}
}

// bounded is ctx limited to the provider's budget for one call.
func (p *Stripe) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, p.budget)
}

// Name implements Provider.
func (*Stripe) Name() string { return ProviderStripe }

// CreateCustomer implements Provider. The idempotency key makes concurrent
// first checkouts of one account get one customer.
func (p *Stripe) CreateCustomer(ctx context.Context, c CustomerRequest) (string, error) {
	params := &stripe.CustomerCreateParams{Email: stripe.String(c.Email)}
	params.AddMetadata(metaAccountID, c.AccountID)
	params.SetIdempotencyKey("customer:" + c.AccountID)
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	cust, err := p.client.V1Customers.Create(ctx, params)
	if err != nil {
		return "", stripeError(err)
	}
	return cust.ID, nil
}

// CreateSubscription implements Provider: the plan's price, incomplete
// until its first invoice is paid (payment_behavior=default_incomplete),
// the card kept for renewals. The client secret is the first invoice's
// confirmation secret; stripe-mock leaves that empty, so the default invoice
// payment's PaymentIntent, expanded for its id anyway, stands in.
func (p *Stripe) CreateSubscription(ctx context.Context, s SubscriptionRequest) (Checkout, error) {
	params := &stripe.SubscriptionCreateParams{
		Customer:        stripe.String(s.CustomerID),
		Items:           []*stripe.SubscriptionCreateItemParams{{Price: stripe.String(p.priceID)}},
		PaymentBehavior: stripe.String("default_incomplete"),
		PaymentSettings: &stripe.SubscriptionCreatePaymentSettingsParams{
			SaveDefaultPaymentMethod: stripe.String("on_subscription"),
		},
	}
	params.AddMetadata(metaAccountID, s.AccountID)
	params.AddExpand("latest_invoice.confirmation_secret")
	params.AddExpand("latest_invoice.payments.data.payment.payment_intent")
	params.SetIdempotencyKey(s.IdempotencyKey)
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	sub, err := p.client.V1Subscriptions.Create(ctx, params)
	if err != nil {
		return Checkout{}, stripeError(err)
	}
	inv := sub.LatestInvoice
	if inv == nil {
		return Checkout{}, fmt.Errorf("subscription %s has no invoice", sub.ID)
	}
	pi := defaultPaymentIntent(inv)
	if pi == nil {
		return Checkout{}, fmt.Errorf("invoice %s of subscription %s has no payment intent", inv.ID, sub.ID)
	}
	co := Checkout{PaymentIntentID: pi.ID, ClientSecret: pi.ClientSecret, SubscriptionID: sub.ID, InvoiceID: inv.ID}
	if inv.ConfirmationSecret != nil && inv.ConfirmationSecret.ClientSecret != "" {
		co.ClientSecret = inv.ConfirmationSecret.ClientSecret
	}
	if co.ClientSecret == "" {
		return Checkout{}, fmt.Errorf("invoice %s of subscription %s has no client secret", inv.ID, sub.ID)
	}
	return co, nil
}

// defaultPaymentIntent is the PaymentIntent Stripe made when it finalised
// inv, nil when the payments were not expanded.
func defaultPaymentIntent(inv *stripe.Invoice) *stripe.PaymentIntent {
	if inv.Payments == nil {
		return nil
	}
	for _, p := range inv.Payments.Data {
		if p.IsDefault && p.Payment != nil && p.Payment.PaymentIntent != nil {
			return p.Payment.PaymentIntent
		}
	}
	return nil
}

// CreatePaymentIntent implements Provider: the catalogue's amount in USD,
// with the account and the credit count in its metadata for the webhook.
func (p *Stripe) CreatePaymentIntent(ctx context.Context, r PaymentIntentRequest) (Checkout, error) {
	params := &stripe.PaymentIntentCreateParams{
		Amount:                  stripe.Int64(r.AmountCents),
		Currency:                stripe.String(catalog.Currency),
		Customer:                stripe.String(r.CustomerID),
		Description:             stripe.String(catalog.CreditsDescription(r.Credits)),
		AutomaticPaymentMethods: &stripe.PaymentIntentCreateAutomaticPaymentMethodsParams{Enabled: stripe.Bool(true)},
	}
	for k, v := range intentMetadata(r.AccountID, r.Credits) {
		params.AddMetadata(k, v)
	}
	params.SetIdempotencyKey(r.IdempotencyKey)
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	pi, err := p.client.V1PaymentIntents.Create(ctx, params)
	if err != nil {
		return Checkout{}, stripeError(err)
	}
	if pi.ClientSecret == "" {
		return Checkout{}, fmt.Errorf("payment intent %s has no client secret", pi.ID)
	}
	return Checkout{PaymentIntentID: pi.ID, ClientSecret: pi.ClientSecret}, nil
}

// CancelAtPeriodEnd implements Provider.
func (p *Stripe) CancelAtPeriodEnd(ctx context.Context, subscriptionID, idempotencyKey string) error {
	params := &stripe.SubscriptionUpdateParams{CancelAtPeriodEnd: stripe.Bool(true)}
	params.SetIdempotencyKey(idempotencyKey)
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	_, err := p.client.V1Subscriptions.Update(ctx, subscriptionID, params)
	return stripeError(err)
}

// Resume implements Provider: neither cancel_at_period_end nor a cancel_at
// date (which the portal may set) stays.
func (p *Stripe) Resume(ctx context.Context, subscriptionID, idempotencyKey string) error {
	params := &stripe.SubscriptionUpdateParams{CancelAtPeriodEnd: stripe.Bool(false)}
	params.AddExtra("cancel_at", "")
	params.SetIdempotencyKey(idempotencyKey)
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	_, err := p.client.V1Subscriptions.Update(ctx, subscriptionID, params)
	return stripeError(err)
}

// CancelNow implements Provider: no final invoice, no proration.
func (p *Stripe) CancelNow(ctx context.Context, subscriptionID, idempotencyKey string) error {
	params := &stripe.SubscriptionCancelParams{InvoiceNow: stripe.Bool(false), Prorate: stripe.Bool(false)}
	params.SetIdempotencyKey(idempotencyKey)
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	_, err := p.client.V1Subscriptions.Cancel(ctx, subscriptionID, params)
	if gone(err) {
		return nil
	}
	return stripeError(err)
}

// gone reports whether err is Stripe saying the object does not exist
// (any more): a cancellation of it is done already.
func gone(err error) bool {
	var se *stripe.Error
	return errors.As(err, &se) && se.Code == stripe.ErrorCodeResourceMissing
}

// VoidUnpaid implements Provider: the subscription is cancelled only while
// Stripe still calls it incomplete (its first invoice unpaid); one that is
// already gone counts as voided.
func (p *Stripe) VoidUnpaid(ctx context.Context, subscriptionID, idempotencyKey string) (bool, error) {
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	sub, err := p.client.V1Subscriptions.Retrieve(ctx, subscriptionID, nil)
	if gone(err) {
		return true, nil
	}
	if err != nil {
		return false, stripeError(err)
	}
	switch sub.Status {
	case stripe.SubscriptionStatusIncompleteExpired, stripe.SubscriptionStatusCanceled:
		return true, nil
	case stripe.SubscriptionStatusIncomplete:
	default:
		return false, nil // paid meanwhile: its invoice.paid is on its way
	}
	if err := p.CancelNow(ctx, subscriptionID, idempotencyKey); err != nil {
		return false, err
	}
	return true, nil
}

// PortalURL implements Provider: a Billing Portal session of the customer,
// which offers what the portal's configuration in the Stripe Dashboard
// allows (update the card, invoices, cancel, resume).
func (p *Stripe) PortalURL(ctx context.Context, r PortalRequest) (string, error) {
	params := &stripe.BillingPortalSessionCreateParams{Customer: stripe.String(r.CustomerID), ReturnURL: stripe.String(r.ReturnURL)}
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	sess, err := p.client.V1BillingPortalSessions.Create(ctx, params)
	if err != nil {
		return "", stripeError(err)
	}
	return sess.URL, nil
}

// InvoiceOfPaymentIntent implements Provider through the invoice payments
// of the PaymentIntent.
func (p *Stripe) InvoiceOfPaymentIntent(ctx context.Context, paymentIntentID string) (string, error) {
	params := &stripe.InvoicePaymentListParams{Payment: &stripe.InvoicePaymentListPaymentParams{
		Type: stripe.String("payment_intent"), PaymentIntent: stripe.String(paymentIntentID),
	}}
	params.Limit = stripe.Int64(1)
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	for ip, err := range p.client.V1InvoicePayments.List(ctx, params) {
		if err != nil {
			return "", stripeError(err)
		}
		if ip.Invoice != nil {
			return ip.Invoice.ID, nil
		}
	}
	return "", nil
}

// ChargeOwner implements Provider by retrieving the charge.
func (p *Stripe) ChargeOwner(ctx context.Context, chargeID string) (ChargeOwner, error) {
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	ch, err := p.client.V1Charges.Retrieve(ctx, chargeID, nil)
	if err != nil {
		return ChargeOwner{}, stripeError(err)
	}
	o := ChargeOwner{Metadata: ch.Metadata}
	if ch.PaymentIntent != nil {
		o.PaymentIntentID = ch.PaymentIntent.ID
	}
	if ch.Customer != nil {
		o.CustomerID = ch.Customer.ID
	}
	return o, nil
}

// PaymentIntentOfInvoice implements Provider through the invoice's
// payments: the one that paid it.
func (p *Stripe) PaymentIntentOfInvoice(ctx context.Context, invoiceID string) (string, error) {
	params := &stripe.InvoicePaymentListParams{Invoice: stripe.String(invoiceID), Status: stripe.String("paid")}
	params.Limit = stripe.Int64(1)
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	for ip, err := range p.client.V1InvoicePayments.List(ctx, params) {
		if err != nil {
			return "", stripeError(err)
		}
		if ip.Payment != nil && ip.Payment.PaymentIntent != nil {
			return ip.Payment.PaymentIntent.ID, nil
		}
	}
	return "", nil
}

// Refund implements Provider with the Refunds API. Stripe's refusals a
// staff member can act on (more than is left, already refunded, disputed)
// answer with Stripe's message.
func (p *Stripe) Refund(ctx context.Context, r RefundRequest) (string, error) {
	params := &stripe.RefundCreateParams{
		PaymentIntent: stripe.String(r.PaymentIntentID), Amount: stripe.Int64(r.AmountCents),
		Reason: stripe.String(string(stripe.RefundReasonRequestedByCustomer)),
	}
	params.AddMetadata(metaAccountID, r.AccountID)
	params.SetIdempotencyKey(r.IdempotencyKey)
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	refund, err := p.client.V1Refunds.Create(ctx, params)
	var se *stripe.Error
	if errors.As(err, &se) && (se.Code == stripe.ErrorCodeAmountTooLarge || se.Code == stripe.ErrorCodeChargeAlreadyRefunded ||
		se.Code == stripe.ErrorCodeChargeDisputed) {
		return "", domain.Errorf(domain.CodeConflict, "Stripe refused the refund: %s", se.Msg)
	}
	if err != nil {
		return "", stripeError(err)
	}
	return refund.ID, nil
}

// ErrProviderUnavailable answers a call during which Stripe did not answer
// in time, failed on its side or was out of reach: nothing was decided, and
// the same call may be tried again in a few seconds.
var ErrProviderUnavailable = domain.Unavailable(5*time.Second, "Payments are not responding right now. Please try again in a few seconds.")

// errKeyMismatch marks Stripe's refusal of an idempotency key reused with
// other parameters.
var errKeyMismatch = errors.New("idempotency key used with other parameters")

// stripeError turns Stripe's refusal of a request the user can fix (an
// amount below Stripe's minimum charge) into a domain error with Stripe's
// message, and a timeout, a network failure or Stripe's own trouble (5xx,
// rate limited) into ErrProviderUnavailable; any other error stays
// internal.
func stripeError(err error) error {
	if err == nil {
		return nil
	}
	var se *stripe.Error
	if errors.As(err, &se) {
		switch {
		case se.Code == stripe.ErrorCodeAmountTooSmall:
			return domain.Errorf(domain.CodeInvalid, "%s", se.Msg)
		case se.HTTPStatusCode >= 500 || se.HTTPStatusCode == http.StatusTooManyRequests,
			// Another request with the same key is still running at Stripe:
			// its answer is not known yet, so the reservation must stay.
			se.HTTPStatusCode == http.StatusConflict:
			return fmt.Errorf("%w (%v)", ErrProviderUnavailable, err)
		case se.Type == stripe.ErrorTypeIdempotency:
			// The key was used with other parameters (a price changed): the
			// reservation ends and the seller's retry asks afresh.
			return fmt.Errorf("%w: %w (%v)", ErrProviderUnavailable, errKeyMismatch, err)
		}
		return err
	}
	// No answer from Stripe at all: a timeout, a refused or dropped
	// connection.
	return fmt.Errorf("%w (%v)", ErrProviderUnavailable, err)
}
