package main

import (
	"context"
	"net/http"

	"github.com/a2e-automation/app/internal/app/command"
)

// simulationResponse is the answer of the simulated provider's routes.
type simulationResponse struct {
	Status  string `json:"status"` // "succeeded" or "failed"
	Message string `json:"message"`
}

// paymentOfSecret names a simulated payment by its client secret: what the
// dev payment routes' bodies share.
type paymentOfSecret struct {
	ClientSecret string `json:"clientSecret"`
}

// Valid implements validator for the bodies that embed it; their other
// fields are the service's to check.
func (p *paymentOfSecret) Valid(context.Context) map[string]string {
	if p.ClientSecret == "" {
		return map[string]string{"clientSecret": "A client secret is required"}
	}
	return nil
}

// confirmRequest is the body of POST /api/dev/payments/confirm.
type confirmRequest struct {
	paymentOfSecret
	Outcome string `json:"outcome"` // "succeeded" or "failed"
}

// handleConfirmSimulated is the simulated provider's stand-in for the
// browser confirming a payment: it records exactly what the matching Stripe
// webhook would. The client secret must be the caller's.
func handleConfirmSimulated(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[confirmRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		id := currentSession(r.Context()).AccountID
		sim, err := d.App.Commands.ConfirmSimulatedPayment.Handle(r.Context(), command.ConfirmSimulatedPayment{
			AccountID: id, ClientSecret: req.ClientSecret, Outcome: req.Outcome, Metadata: metadata(r, "account:"+id)})
		writeSimulation(w, r, d, sim, err)
	}
}

// advanceRequest is the optional body of POST
// /api/dev/subscription/advance-cycle; the outcome defaults to succeeded
// (command.AdvanceSimulatedCycle).
type advanceRequest struct {
	Outcome string `json:"outcome"`
}

// handleAdvanceCycle ends the caller's current billing cycle as Stripe's
// next invoice.paid (or, with outcome failed, invoice.payment_failed) would.
func handleAdvanceCycle(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req advanceRequest
		if r.ContentLength != 0 {
			var err error
			if req, err = decode[advanceRequest](r); err != nil {
				writeError(w, r, d.Log, err)
				return
			}
		}
		id := currentSession(r.Context()).AccountID
		sim, err := d.App.Commands.AdvanceSimulatedCycle.Handle(r.Context(), command.AdvanceSimulatedCycle{
			AccountID: id, Outcome: req.Outcome, Metadata: metadata(r, "account:"+id)})
		writeSimulation(w, r, d, sim, err)
	}
}

// writeSimulation answers a simulated payment once the read tables show it.
func writeSimulation(w http.ResponseWriter, r *http.Request, d Deps, sim command.Simulation, err error) {
	if err != nil {
		writeError(w, r, d.Log, err)
		return
	}
	awaitProjections(d, r, sim.Outcome.Result.LastPosition)
	encode(w, http.StatusOK, simulationResponse{Status: sim.Status, Message: sim.Message})
}

// refundRequest is the body of POST /api/dev/payments/refund; without
// credits the payment is refunded in full.
type refundRequest struct {
	paymentOfSecret
	Credits *int64 `json:"credits"`
}

// handleRefundSimulated refunds a simulated payment of the caller, wholly
// or in part, as Stripe's charge.refunded would.
func handleRefundSimulated(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[refundRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		id := currentSession(r.Context()).AccountID
		sim, err := d.App.Commands.RefundSimulatedPayment.Handle(r.Context(), command.RefundSimulatedPayment{
			AccountID: id, ClientSecret: req.ClientSecret, Credits: req.Credits, Metadata: metadata(r, "account:"+id)})
		writeSimulation(w, r, d, sim, err)
	}
}

// disputeRequest is the body of POST /api/dev/payments/dispute.
type disputeRequest struct {
	paymentOfSecret
	Status string `json:"status"` // opened, won or lost
}

// handleDisputeSimulated drives a dispute of a simulated payment of the
// caller, as Stripe's charge.dispute events would.
func handleDisputeSimulated(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[disputeRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		id := currentSession(r.Context()).AccountID
		sim, err := d.App.Commands.DisputeSimulatedPayment.Handle(r.Context(), command.DisputeSimulatedPayment{
			AccountID: id, ClientSecret: req.ClientSecret, Status: req.Status, Metadata: metadata(r, "account:"+id)})
		writeSimulation(w, r, d, sim, err)
	}
}
