// Package stripetest builds Stripe webhook deliveries for tests: events in
// the JSON shape Stripe sends for API version 2025-08-27.basil (the version
// stripe-go v82 reads), written out by hand rather than encoded from
// stripe-go's structs, and signed with stripe-go's webhook helper.
package stripetest

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"
)

// Invoice is a subscription invoice.
type Invoice struct {
	ID, CustomerID, SubscriptionID string
	AccountID                      string // in the subscription's metadata; "" for none
	PeriodStart, PeriodEnd         time.Time
	AmountCents                    int64
	Paid                           bool
	HostedURL                      string
}

// Object is the invoice as a webhook carries it.
func (i Invoice) Object() map[string]any {
	status, paid := "open", int64(0)
	if i.Paid {
		status, paid = "paid", i.AmountCents
	}
	return map[string]any{
		"id": i.ID, "object": "invoice", "customer": i.CustomerID, "currency": "usd",
		"amount_due": i.AmountCents, "amount_paid": paid, "amount_remaining": i.AmountCents - paid,
		"billing_reason": "subscription_cycle", "status": status, "hosted_invoice_url": nullable(i.HostedURL),
		"period_start": i.PeriodStart.Add(-30 * 24 * time.Hour).Unix(), "period_end": i.PeriodStart.Unix(),
		"parent": map[string]any{
			"type": "subscription_details", "quote_details": nil,
			"subscription_details": map[string]any{"subscription": i.SubscriptionID, "metadata": metadata(i.AccountID)},
		},
		"lines": map[string]any{
			"object": "list", "has_more": false, "total_count": 1, "url": "/v1/invoices/" + i.ID + "/lines",
			"data": []any{map[string]any{
				"id": "il_" + i.ID, "object": "line_item", "amount": i.AmountCents, "currency": "usd",
				"description": "1 × Monthly Plan (at $29.99 / month)", "invoice": i.ID,
				"period": map[string]any{"start": i.PeriodStart.Unix(), "end": i.PeriodEnd.Unix()},
				"parent": map[string]any{
					"type": "subscription_item_details", "invoice_item_details": nil,
					"subscription_item_details": map[string]any{
						"subscription": i.SubscriptionID, "subscription_item": "si_" + i.SubscriptionID,
						"proration": false, "proration_details": map[string]any{"credited_items": nil}, "invoice_item": nil,
					},
				},
			}},
		},
	}
}

// Subscription is a subscription as customer.subscription.* events carry it.
type Subscription struct {
	ID, CustomerID         string
	AccountID              string // in its metadata; "" for none
	Status                 string // active, past_due, canceled...
	CancelAtPeriodEnd      bool
	PeriodStart, PeriodEnd time.Time
}

// Object is the subscription as a webhook carries it.
func (s Subscription) Object() map[string]any {
	return map[string]any{
		"id": s.ID, "object": "subscription", "customer": s.CustomerID, "status": s.Status,
		"cancel_at_period_end": s.CancelAtPeriodEnd, "cancel_at": nil, "metadata": metadata(s.AccountID),
		"items": map[string]any{
			"object": "list", "has_more": false, "url": "/v1/subscription_items?subscription=" + s.ID,
			"data": []any{map[string]any{
				"id": "si_" + s.ID, "object": "subscription_item", "subscription": s.ID, "quantity": 1,
				"current_period_start": s.PeriodStart.Unix(), "current_period_end": s.PeriodEnd.Unix(),
			}},
		},
	}
}

// PaymentIntent is a credit purchase's PaymentIntent.
type PaymentIntent struct {
	ID, CustomerID string
	AccountID      string // in its metadata; "" for none
	Credits        int64  // in its metadata with kind=credits; 0 for neither
	AmountCents    int64
	Currency       string // "" is usd
	Succeeded      bool
}

// Object is the PaymentIntent as a webhook carries it.
func (p PaymentIntent) Object() map[string]any {
	currency := p.Currency
	if currency == "" {
		currency = "usd"
	}
	md := metadata(p.AccountID)
	if p.Credits != 0 {
		md["kind"], md["credits"] = "credits", fmt.Sprint(p.Credits)
	}
	o := map[string]any{
		"id": p.ID, "object": "payment_intent", "amount": p.AmountCents, "currency": currency,
		"customer": nullable(p.CustomerID), "metadata": md, "status": "succeeded",
		"amount_received": p.AmountCents, "last_payment_error": nil,
		"client_secret": p.ID + "_secret_test",
	}
	if !p.Succeeded {
		o["status"], o["amount_received"] = "requires_payment_method", 0
		o["last_payment_error"] = map[string]any{
			"type": "card_error", "code": "card_declined", "decline_code": "generic_decline", "message": "Your card was declined.",
		}
	}
	return o
}

// Charge is the charge of a PaymentIntent, as charge.refunded carries it;
// AccountID and Credits go into its metadata as Stripe copies the
// PaymentIntent's.
type Charge struct {
	ID, PaymentIntentID, CustomerID string
	AccountID                       string
	Credits                         int64
	AmountCents, RefundedCents      int64
}

// Object is the charge as a webhook carries it.
func (c Charge) Object() map[string]any {
	md := metadata(c.AccountID)
	if c.Credits != 0 {
		md["kind"], md["credits"] = "credits", fmt.Sprint(c.Credits)
	}
	return map[string]any{
		"id": c.ID, "object": "charge", "amount": c.AmountCents, "amount_captured": c.AmountCents,
		"amount_refunded": c.RefundedCents, "refunded": c.RefundedCents >= c.AmountCents, "currency": "usd",
		"customer": nullable(c.CustomerID), "payment_intent": c.PaymentIntentID, "metadata": md,
		"paid": true, "status": "succeeded",
	}
}

// Dispute is a chargeback of a charge; Status is needs_response while
// open, won or lost when closed.
type Dispute struct {
	ID     string
	Charge Charge
	Status string
}

// Object is the dispute as a webhook carries it: its charge and
// PaymentIntent as ids, never expanded (the charge's customer and metadata
// are the charge's own business).
func (d Dispute) Object() map[string]any {
	return map[string]any{
		"id": d.ID, "object": "dispute", "amount": d.Charge.AmountCents, "currency": "usd",
		"charge": d.Charge.ID, "payment_intent": nullable(d.Charge.PaymentIntentID), "status": d.Status, "reason": "fraudulent",
	}
}

// Event is the body of a webhook delivery of object as event id of type typ.
func Event(id, typ string, created time.Time, object map[string]any) []byte {
	b, err := json.Marshal(map[string]any{
		"id": id, "object": "event", "api_version": stripe.APIVersion, "created": created.Unix(),
		"type": typ, "livemode": false, "pending_webhooks": 1,
		"request": map[string]any{"id": nil, "idempotency_key": nil},
		"data":    map[string]any{"object": object},
	})
	if err != nil {
		panic(err) // maps of strings, numbers and maps always encode
	}
	return b
}

// Sign returns the Stripe-Signature header of payload, signed now with
// secret.
func Sign(payload []byte, secret string) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret}).Header
}

func metadata(accountID string) map[string]string {
	md := map[string]string{}
	if accountID != "" {
		md["account_id"] = accountID
	}
	return md
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
