package payments

import (
	"context"
	"errors"
	"fmt"

	"github.com/stripe/stripe-go/v82"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/catalog"
)

// CreateSetupIntent implements Provider: a card SetupIntent of the
// customer for off-session use, confirmed by Stripe Elements; Stripe
// reports it by setup_intent.succeeded (webhook_setup.go).
func (p *Stripe) CreateSetupIntent(ctx context.Context, r SetupIntentRequest) (SetupCheckout, error) {
	params := &stripe.SetupIntentCreateParams{
		Customer:           stripe.String(r.CustomerID),
		Usage:              stripe.String(string(stripe.SetupIntentUsageOffSession)),
		PaymentMethodTypes: []*string{stripe.String("card")},
	}
	params.AddMetadata(metaAccountID, r.AccountID)
	params.SetIdempotencyKey(r.IdempotencyKey)
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	si, err := p.client.V1SetupIntents.Create(ctx, params)
	if err != nil {
		return SetupCheckout{}, stripeError(err)
	}
	if si.ClientSecret == "" {
		return SetupCheckout{}, fmt.Errorf("setup intent %s has no client secret", si.ID)
	}
	return SetupCheckout{SetupIntentID: si.ID, ClientSecret: si.ClientSecret}, nil
}

// ChargeOffSession implements Provider: a PaymentIntent for the pack,
// off_session and confirmed at once, with the recharge's idempotency key
// and metadata (the credit purchase's plus the recharge), so its webhook
// grants through the purchase path. A decline or a demand for
// authentication is Stripe's card error carrying the PaymentIntent.
func (p *Stripe) ChargeOffSession(ctx context.Context, r OffSessionCharge) (RechargeOutcome, error) {
	params := &stripe.PaymentIntentCreateParams{
		Amount:        stripe.Int64(r.AmountCents),
		Currency:      stripe.String(catalog.Currency),
		Customer:      stripe.String(r.CustomerID),
		PaymentMethod: stripe.String(r.PaymentMethodID),
		OffSession:    stripe.Bool(true),
		Confirm:       stripe.Bool(true),
		Description:   stripe.String(accounts.RechargeDescription(r.Credits)),
	}
	for k, v := range intentMetadata(r.AccountID, r.Credits) {
		params.AddMetadata(k, v)
	}
	params.AddMetadata(metaRecharge, r.RechargeID)
	params.SetIdempotencyKey(r.IdempotencyKey)
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	pi, err := p.client.V1PaymentIntents.Create(ctx, params)
	var se *stripe.Error
	if err != nil && errors.As(err, &se) && se.Type == stripe.ErrorTypeCard {
		out := RechargeOutcome{Status: RechargeDeclined, Message: se.Msg}
		if se.PaymentIntent != nil {
			out.PaymentIntentID = se.PaymentIntent.ID
		}
		if se.Code == stripe.ErrorCodeAuthenticationRequired {
			out.Status = RechargeNeedsAction
		}
		return out, nil
	}
	if err != nil {
		return RechargeOutcome{}, stripeError(err)
	}
	// Stripe answers a declined confirmation with a card error (above);
	// any other status than these two (stripe-mock's fixture answers
	// requires_payment_method) is left to the webhook, which is what grants
	// or fails the recharge in every case.
	out := RechargeOutcome{PaymentIntentID: pi.ID, Status: RechargeProcessing}
	switch {
	case pi.Status == stripe.PaymentIntentStatusSucceeded:
		out.Status = RechargeSucceeded
	case pi.Status == stripe.PaymentIntentStatusRequiresAction:
		out.Status = RechargeNeedsAction
	}
	return out, nil
}

// PaymentMethodCard implements Provider.
func (p *Stripe) PaymentMethodCard(ctx context.Context, id string) (domain.Card, error) {
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	pm, err := p.client.V1PaymentMethods.Retrieve(ctx, id, nil)
	if err != nil {
		return domain.Card{}, stripeError(err)
	}
	if pm.Card == nil {
		return domain.Card{Brand: string(pm.Type)}, nil
	}
	return domain.Card{Brand: string(pm.Card.Brand), Last4: pm.Card.Last4}, nil
}

// DetachPaymentMethod implements Provider.
func (p *Stripe) DetachPaymentMethod(ctx context.Context, id string) error {
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	_, err := p.client.V1PaymentMethods.Detach(ctx, id, nil)
	return stripeError(err)
}

// RechargeClientSecret implements Provider: the PaymentIntent's, asked of
// Stripe.
func (p *Stripe) RechargeClientSecret(ctx context.Context, paymentIntentID, _ string) (string, error) {
	ctx, cancel := p.bounded(ctx)
	defer cancel()
	pi, err := p.client.V1PaymentIntents.Retrieve(ctx, paymentIntentID, nil)
	if err != nil {
		return "", stripeError(err)
	}
	return pi.ClientSecret, nil
}

// rechargeOf is the recharge a PaymentIntent's metadata names ("" for a
// pack bought at the checkout).
func rechargeOf(metadata map[string]string) string { return metadata[metaRecharge] }
