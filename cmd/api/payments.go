package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/catalog"
	"github.com/a2e-automation/app/internal/payments"
)

// handleConfig tells the webapp which payment provider is active, and
// Stripe's publishable key when it is Stripe. Public: the checkout needs it
// before anything else.
func handleConfig(d Deps) http.HandlerFunc {
	type response struct {
		PaymentProvider      string  `json:"paymentProvider"`
		StripePublishableKey *string `json:"stripePublishableKey"`
		Environment          string  `json:"environment"`
	}
	return func(w http.ResponseWriter, _ *http.Request) {
		res := response{PaymentProvider: d.Payments.ProviderName(), Environment: d.Config.Env}
		if res.PaymentProvider == payments.ProviderStripe && d.Config.StripePublishableKey != "" {
			res.StripePublishableKey = &d.Config.StripePublishableKey
		}
		encode(w, http.StatusOK, res)
	}
}

// handleCreateSubscription starts the monthly plan: the answer's client
// secret pays the first invoice. Nothing is granted until the provider
// reports it paid.
func handleCreateSubscription(d Deps) http.HandlerFunc {
	type response struct {
		ClientSecret string `json:"clientSecret"`
		Message      string `json:"message"`
	}
	return func(w http.ResponseWriter, r *http.Request) {
		co, err := d.Payments.CreateSubscription(r.Context(), currentSession(r.Context()).AccountID)
		if err != nil {
			writePaymentError(w, r, d, err, "Failed to create subscription")
			return
		}
		encode(w, http.StatusOK, response{ClientSecret: co.ClientSecret, Message: "Complete the payment to activate your subscription"})
	}
}

// handleCancelSubscription cancels at the end of the current period; the
// profile shows cancelled at once.
func handleCancelSubscription(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := currentSession(r.Context()).AccountID
		res, err := d.Payments.CancelSubscription(r.Context(), id, metadata(r, "account:"+id))
		if err != nil {
			writePaymentError(w, r, d, err, "Failed to cancel subscription")
			return
		}
		awaitProjections(d, r, res.LastPosition)
		encode(w, http.StatusOK, map[string]string{"message": "Subscription cancelled"})
	}
}

// purchaseRequest is the body of POST /api/credits/purchase. The amount is
// read raw, so that a fraction, a string or a boolean get the spec's
// message rather than a JSON type error.
type purchaseRequest struct {
	CreditAmount json.RawMessage `json:"creditAmount"`
	credits      int64
}

// Valid implements validator: a whole number of credits the catalogue
// prices (positive, at most catalog.MaxCustomCredits).
func (p *purchaseRequest) Valid(context.Context) map[string]string {
	raw := strings.TrimSpace(string(p.CreditAmount))
	if raw == "" || raw == "null" {
		return map[string]string{"creditAmount": "Credit amount is required."}
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err == nil {
		_, err = catalog.PriceCents(n)
	}
	if err != nil {
		return map[string]string{"creditAmount": catalog.InvalidAmount}
	}
	p.credits = n
	return nil
}

// handlePurchaseCredits starts a credit purchase at the catalogue's price;
// the credits are granted when the provider reports the payment.
func handlePurchaseCredits(d Deps) http.HandlerFunc {
	type response struct {
		ClientSecret string `json:"clientSecret"`
		Message      string `json:"message"`
		AmountCents  int64  `json:"amountCents"`
	}
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[purchaseRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		p, err := d.Payments.PurchaseCredits(r.Context(), currentSession(r.Context()).AccountID, req.credits)
		if err != nil {
			writePaymentError(w, r, d, err, "Failed to create payment session")
			return
		}
		encode(w, http.StatusOK, response{
			ClientSecret: p.ClientSecret, AmountCents: p.AmountCents,
			Message: "Complete the payment to add " + strconv.FormatInt(p.Credits, 10) + " credits",
		})
	}
}

// writePaymentError answers err as writeError does, except that an
// unexpected failure (the provider unreachable, say) is logged and answered
// with the spec's server default for the call, such as "Failed to create
// subscription".
func writePaymentError(w http.ResponseWriter, r *http.Request, d Deps, err error, fallback string) {
	var he *httpError
	if errors.As(err, &he) || domain.ErrorCode(err) != "" || errors.Is(err, context.Canceled) ||
		errors.Is(err, eventstore.ErrCommitUnknown) || databaseUnavailable(err) {
		writeError(w, r, d.Log, err)
		return
	}
	d.Log.ErrorContext(r.Context(), "payment call failed", "method", r.Method, "path", r.URL.Path,
		"requestId", requestID(r.Context()), "err", err)
	encode(w, http.StatusInternalServerError, errorBody{Message: fallback})
}
