package main

import (
	"context"
	"errors"
	"net/http"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/payments"
)

// autoRechargeRequest is PUT /api/account/auto-recharge (issue 33 item 2).
// Integers only: 1.5 or "5" is refused by decode with the field's name.
type autoRechargeRequest struct {
	Enabled           bool  `json:"enabled"`
	ThresholdCredits  int64 `json:"thresholdCredits"`
	PackCredits       int64 `json:"packCredits"`
	MonthlyLimitCents int64 `json:"monthlyLimitCents"`
}

// Valid implements validator: the domain's bounds, and a pack the
// catalogue sells with a monthly limit of at least its price.
func (q autoRechargeRequest) Valid(context.Context) map[string]string {
	price, err := command.PackPrice(q.PackCredits)
	problems := domain.CheckAutoRecharge(domain.AutoRecharge{ThresholdCredits: q.ThresholdCredits, PackCredits: q.PackCredits,
		PackAmountCents: price, MonthlyLimitCents: q.MonthlyLimitCents})
	if err != nil {
		problems["packCredits"] = domain.ErrorMessage(err)
	}
	return problems
}

// cardBody is a saved card as GET shows it.
type cardBody struct {
	Brand string `json:"brand"`
	Last4 string `json:"last4"`
}

// autoRechargeResponse is GET and PUT /api/account/auto-recharge's answer:
// the settings, the saved card (null for none), why auto-recharge turned
// itself off (null while it did not), and what is going on.
type autoRechargeResponse struct {
	Enabled              bool      `json:"enabled"`
	ThresholdCredits     int64     `json:"thresholdCredits"`
	PackCredits          int64     `json:"packCredits"`
	PackAmountCents      int64     `json:"packAmountCents"`
	MonthlyLimitCents    int64     `json:"monthlyLimitCents"`
	PaymentMethod        *cardBody `json:"paymentMethod"`
	DisabledReason       *string   `json:"disabledReason"`
	RechargeInFlight     bool      `json:"rechargeInFlight"`
	NeedsAuthentication  bool      `json:"needsAuthentication"`
	RechargedThisMonthCt int64     `json:"rechargedThisMonthCents"`
}

func autoRechargeOf(v domain.AutoRechargeView) autoRechargeResponse {
	out := autoRechargeResponse{Enabled: v.Enabled, ThresholdCredits: v.ThresholdCredits, PackCredits: v.PackCredits,
		PackAmountCents: v.PackAmountCents, MonthlyLimitCents: v.MonthlyLimitCents, RechargeInFlight: v.InFlight != "",
		NeedsAuthentication: v.AwaitingAction != "", RechargedThisMonthCt: v.SpentThisMonth}
	if v.Card != nil {
		out.PaymentMethod = &cardBody{Brand: v.Card.Brand, Last4: v.Card.Last4}
	}
	if v.DisabledReason != "" {
		r := v.DisabledReason
		out.DisabledReason = &r
	}
	return out
}

// handleGetAutoRecharge answers GET /api/account/auto-recharge.
func handleGetAutoRecharge(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := d.App.Queries.AutoRecharge.Handle(r.Context(), currentSession(r.Context()).AccountID)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, autoRechargeOf(v))
	}
}

// handlePutAutoRecharge answers PUT /api/account/auto-recharge: bad input,
// an unverified account, or turning it on without a card is a 400 naming
// the field.
func handlePutAutoRecharge(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[autoRechargeRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		id := currentSession(r.Context()).AccountID
		v, res, err := d.App.Commands.SetAutoRecharge.Handle(r.Context(), command.SetAutoRecharge{AccountID: id, Enabled: req.Enabled,
			ThresholdCredits: req.ThresholdCredits, PackCredits: req.PackCredits, MonthlyLimitCents: req.MonthlyLimitCents,
			Metadata: metadata(r, "account:"+id)})
		switch {
		case errors.Is(err, domain.ErrAutoRechargeUnverified):
			err = invalid(map[string]string{"enabled": domain.ErrorMessage(err)})
		case errors.Is(err, domain.ErrNoPaymentMethod):
			err = invalid(map[string]string{"paymentMethod": domain.ErrorMessage(err)})
		}
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		awaitProjections(d, r, res.LastPosition)
		encode(w, http.StatusOK, autoRechargeOf(v))
	}
}

// handleSavePaymentMethod answers POST /api/account/payment-method with
// the SetupIntent's {clientSecret}, for Stripe Elements (or, in
// development, POST /api/dev/payments/confirm).
func handleSavePaymentMethod(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		co, err := d.App.Commands.SavePaymentMethod.Handle(r.Context(), command.SavePaymentMethod{AccountID: currentSession(r.Context()).AccountID})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, payments.SetupCheckout{ClientSecret: co.ClientSecret})
	}
}

// handleRemovePaymentMethod answers DELETE /api/account/payment-method:
// 204, the card removed (and auto-recharge off if it was on).
func handleRemovePaymentMethod(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := currentSession(r.Context()).AccountID
		res, err := d.App.Commands.RemovePaymentMethod.Handle(r.Context(), command.RemovePaymentMethod{AccountID: id,
			Metadata: metadata(r, "account:"+id)})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		awaitProjections(d, r, res.LastPosition)
		w.WriteHeader(http.StatusNoContent)
	}
}

// handleConfirmRechargePayment answers POST
// /api/account/auto-recharge/confirmation: {clientSecret, credits,
// amountCents} of the recharge waiting for 3-D Secure, for the dashboard's
// payment form; 404 when none waits.
func handleConfirmRechargePayment(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, err := d.App.Commands.ConfirmRechargePayment.Handle(r.Context(), command.ConfirmRechargePayment{AccountID: currentSession(r.Context()).AccountID})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, p)
	}
}
