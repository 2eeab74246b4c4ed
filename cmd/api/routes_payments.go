package main

import (
	"github.com/go-chi/chi/v5"
)

// addPaymentRoutes declares subscription, credit purchase and webhook
// routes (those that call the provider for a seller throttled), and the simulated provider's development routes when it is the
// active provider (development without Stripe keys only).
func addPaymentRoutes(r chi.Router, d Deps) {
	r.Get("/config", handleConfig(d))
	r.Post("/webhooks/stripe", handleStripeWebhook(d))
	r.Group(func(r chi.Router) {
		r.Use(requireSession(d))
		r.Group(func(r chi.Router) {
			r.Use(throttlePayments(d))
			r.Post("/subscription/create", handleCreateSubscription(d))
			r.Post("/subscription/cancel", handleCancelSubscription(d))
			r.Post("/subscription/resume", handleResumeSubscription(d))
			r.Post("/subscription/portal", handleBillingPortal(d))
			r.Post("/credits/purchase", handlePurchaseCredits(d))
		})
		if d.Payments.Simulation() == nil {
			r.With(loopbackOnly(d)).Post("/dev/payments/confirm", handleConfirmSimulated(d))
			r.With(loopbackOnly(d)).Post("/dev/subscription/advance-cycle", handleAdvanceCycle(d))
			r.With(loopbackOnly(d)).Post("/dev/payments/refund", handleRefundSimulated(d))
			r.With(loopbackOnly(d)).Post("/dev/payments/dispute", handleDisputeSimulated(d))
		}
	})
}
