package payments

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/stripe/stripe-go/v82"

	"github.com/a2e-automation/app/domain"
)

// StripeConfig configures the Stripe provider.
type StripeConfig struct {
	SecretKey  string
	PriceID    string       // the monthly plan's recurring price
	APIBase    string       // another API address (stripe-mock); empty: Stripe's
	HTTPClient *http.Client // nil: stripe-go's default
}

// Stripe is the Provider on Stripe's API, through stripe-go's client.
type Stripe struct {
	client  *stripe.Client
	priceID string
}

// NewStripe returns the Stripe provider. stripe-go logs nothing: its errors
// come back to the caller, and requests may carry secrets.
func NewStripe(cfg StripeConfig) *Stripe {
	backend := &stripe.BackendConfig{
		HTTPClient:    cfg.HTTPClient,
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull},
	}
	if cfg.APIBase != "" {
		backend.URL = stripe.String(cfg.APIBase)
	}
	return &Stripe{
		client:  stripe.NewClient(cfg.SecretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(backend))),
		priceID: cfg.PriceID,
	}
}

// Name implements Provider.
func (*Stripe) Name() string { return ProviderStripe }

// CreateCustomer implements Provider. The idempotency key makes concurrent
// first checkouts of one account get one customer.
func (p *Stripe) CreateCustomer(ctx context.Context, c CustomerRequest) (string, error) {
	params := &stripe.CustomerCreateParams{Email: stripe.String(c.Email)}
	params.AddMetadata(metaAccountID, c.AccountID)
	params.SetIdempotencyKey("customer:" + c.AccountID)
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
		Currency:                stripe.String(Currency),
		Customer:                stripe.String(r.CustomerID),
		Description:             stripe.String(creditsDescription(r.Credits)),
		AutomaticPaymentMethods: &stripe.PaymentIntentCreateAutomaticPaymentMethodsParams{Enabled: stripe.Bool(true)},
	}
	for k, v := range intentMetadata(r.AccountID, r.Credits) {
		params.AddMetadata(k, v)
	}
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
func (p *Stripe) CancelAtPeriodEnd(ctx context.Context, subscriptionID string) error {
	_, err := p.client.V1Subscriptions.Update(ctx, subscriptionID, &stripe.SubscriptionUpdateParams{
		CancelAtPeriodEnd: stripe.Bool(true),
	})
	return stripeError(err)
}

// stripeError turns Stripe's refusal of a request the user can fix (an
// amount below Stripe's minimum charge) into a domain error with Stripe's
// message; any other error stays internal.
func stripeError(err error) error {
	var se *stripe.Error
	if errors.As(err, &se) && se.Code == stripe.ErrorCodeAmountTooSmall {
		return domain.Errorf(domain.CodeInvalid, "%s", se.Msg)
	}
	return err
}
