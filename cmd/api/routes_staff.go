package main

import "github.com/go-chi/chi/v5"

// addStaffRoutes declares the support staff console's routes. They answer
// 404 to everyone who is not staff.
func addStaffRoutes(r chi.Router, d Deps) {
	r.Route("/staff", func(r chi.Router) {
		r.Use(requireStaff(d))
		r.Get("/accounts", handleStaffSearch(d))
		r.Get("/accounts/{id}/history", handleStaffHistory(d))
		r.Get("/accounts/{id}/balance", handleStaffBalance(d))
		r.Get("/accounts/{id}/comparison", handleStaffComparison(d))
		r.Post("/accounts/{id}/adjustments", handleStaffAdjustment(d))
		r.Post("/projections/{name}/rebuild", handleStaffRebuild(d))
		// Money actions through the payment provider (issue 26).
		r.Post("/accounts/{id}/refunds", handleStaffRefund(d))
		r.Post("/accounts/{id}/subscription/cancel", handleStaffCancelSubscription(d))
		// The support inbox (issue 26).
		r.Get("/support-requests", handleStaffSupportInbox(d))
		r.Get("/support-requests/{id}", handleStaffSupportRequest(d))
		r.Post("/support-requests/{id}/replies", handleStaffSupportReply(d))
		r.Post("/support-requests/{id}/status", handleStaffSupportStatus(d))
	})
}
