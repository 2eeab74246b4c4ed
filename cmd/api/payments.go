package main

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/catalog"
	"github.com/a2e-automation/app/internal/payments"
)

// handleConfig tells the webapp what it cannot know by itself: which
// payment provider is active (and Stripe's publishable key when it is
// Stripe), the product's name and support contacts, the desktop API's
// address and limit, the plan's features, the smallest custom purchase and
// the installer on offer (null when there is none to serve). Public: the
// landing page and the checkout need it before anything else.
func handleConfig(d Deps) http.HandlerFunc {
	type installer struct {
		Platform  string `json:"platform"`
		FileName  string `json:"fileName"`
		Version   string `json:"version"`
		SizeBytes int64  `json:"sizeBytes"`
		SHA256    string `json:"sha256"`
	}
	type response struct {
		PaymentProvider      string     `json:"paymentProvider"`
		StripePublishableKey *string    `json:"stripePublishableKey"`
		Environment          string     `json:"environment"`
		ProductName          string     `json:"productName"`
		SupportEmail         string     `json:"supportEmail"`
		SupportPhone         *string    `json:"supportPhone"`
		RateLimitPerMinute   int        `json:"rateLimitPerMinute"`
		APIBaseURL           string     `json:"apiBaseUrl"`
		PlanFeatures         []string   `json:"planFeatures"`
		MinCustomCredits     int64      `json:"minCustomCredits"`
		Installer            *installer `json:"installer"`
	}
	return func(w http.ResponseWriter, _ *http.Request) {
		c := d.Config
		res := response{PaymentProvider: d.Payments.ProviderName(), Environment: c.Env,
			ProductName: c.ProductName, SupportEmail: c.SupportEmail, RateLimitPerMinute: c.RateLimitPerMinute,
			APIBaseURL: c.BaseURL, PlanFeatures: catalog.MonthlyPlan().Features, MinCustomCredits: catalog.MinCustomCredits}
		if res.PaymentProvider == payments.ProviderStripe && c.StripePublishableKey != "" {
			res.StripePublishableKey = &c.StripePublishableKey
		}
		if c.SupportPhone != "" {
			res.SupportPhone = &c.SupportPhone
		}
		// No installer is logged at start-up and at each download attempt,
		// not at every page load.
		if inst, err := d.Downloads.Latest(); err == nil {
			res.Installer = &installer{Platform: inst.Platform, FileName: inst.FileName, Version: inst.Version,
				SizeBytes: inst.SizeBytes, SHA256: inst.SHA256}
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
		co, err := d.App.Commands.StartSubscription.Handle(r.Context(), command.StartSubscription{AccountID: currentSession(r.Context()).AccountID})
		if err != nil {
			writeError(w, r, d.Log, withFallback(err, "Failed to create subscription"))
			return
		}
		encode(w, http.StatusOK, response{ClientSecret: co.ClientSecret, Message: "Complete the payment to activate your subscription"})
	}
}

// handleCancelSubscription cancels an active subscription at the end of
// its period (the profile shows cancelling at once) and a past due one now.
func handleCancelSubscription(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := currentSession(r.Context()).AccountID
		res, err := d.App.Commands.CancelSubscription.Handle(r.Context(), command.SellerSubscription{AccountID: id, Metadata: metadata(r, "account:"+id)})
		if err != nil {
			writeError(w, r, d.Log, withFallback(err, "Failed to cancel subscription"))
			return
		}
		awaitProjections(d, r, res.LastPosition)
		encode(w, http.StatusOK, map[string]string{"message": "Subscription cancelled"})
	}
}

// handleResumeSubscription undoes a pending cancellation.
func handleResumeSubscription(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := currentSession(r.Context()).AccountID
		res, err := d.App.Commands.ResumeSubscription.Handle(r.Context(), command.SellerSubscription{AccountID: id, Metadata: metadata(r, "account:"+id)})
		if err != nil {
			writeError(w, r, d.Log, withFallback(err, "Failed to resume subscription"))
			return
		}
		awaitProjections(d, r, res.LastPosition)
		encode(w, http.StatusOK, map[string]string{"message": "Your subscription will renew as usual."})
	}
}

// handleBillingPortal answers where the seller manages billing: Stripe's
// Billing Portal, or the simulated provider's page.
func handleBillingPortal(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		url, err := d.App.Commands.OpenBillingPortal.Handle(r.Context(), command.OpenBillingPortal{AccountID: currentSession(r.Context()).AccountID})
		if err != nil {
			writeError(w, r, d.Log, withFallback(err, "Failed to open the billing portal"))
			return
		}
		encode(w, http.StatusOK, map[string]string{"url": url})
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
// prices (from catalog.MinCustomCredits to catalog.MaxCustomCredits), else
// the catalogue's message.
func (p *purchaseRequest) Valid(context.Context) map[string]string {
	raw := strings.TrimSpace(string(p.CreditAmount))
	if raw == "" || raw == "null" {
		return map[string]string{"creditAmount": "Credit amount is required."}
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return map[string]string{"creditAmount": catalog.InvalidAmount}
	}
	if _, err := catalog.PriceCents(n); err != nil {
		return map[string]string{"creditAmount": domain.ErrorMessage(err)}
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
		p, err := d.App.Commands.PurchaseCredits.Handle(r.Context(), command.PurchaseCredits{AccountID: currentSession(r.Context()).AccountID, Credits: req.credits})
		if err != nil {
			writeError(w, r, d.Log, withFallback(err, "Failed to create payment session"))
			return
		}
		encode(w, http.StatusOK, response{
			ClientSecret: p.ClientSecret, AmountCents: p.AmountCents,
			Message: "Complete the payment to add " + strconv.FormatInt(p.Credits, 10) + " credits",
		})
	}
}
