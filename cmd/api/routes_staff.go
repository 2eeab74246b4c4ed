package main

import (
	"github.com/go-chi/chi/v5"

	"github.com/a2e-automation/app/internal/staffaudit"
)

// addStaffRoutes declares the support staff console's routes. They answer
// 404 to everyone who is not staff, and 403 staff_mfa_required to staff
// whose session has not passed the second factor; every read of an account
// and every action is audited (staffaudit).
func addStaffRoutes(r chi.Router, d Deps) {
	r.Route("/staff", func(r chi.Router) {
		r.Use(requireStaff(d))
		r.With(audited(d, staffaudit.ActionSearch)).Get("/accounts", handleStaffSearch(d))
		r.With(audited(d, staffaudit.ActionView)).Get("/accounts/{id}", handleStaffAccount(d))
		r.With(audited(d, staffaudit.ActionHistory)).Get("/accounts/{id}/history", handleStaffHistory(d))
		r.With(audited(d, staffaudit.ActionBalance)).Get("/accounts/{id}/balance", handleStaffBalance(d))
		r.With(audited(d, staffaudit.ActionComparison)).Get("/accounts/{id}/comparison", handleStaffComparison(d))
		r.With(auditRefusals(d, staffaudit.ActionAdjustment, true)).Post("/accounts/{id}/adjustments", handleStaffAdjustment(d)) // audited in its transaction
		r.With(audited(d, staffaudit.ActionRebuild)).Post("/projections/{name}/rebuild", handleStaffRebuild(d))
		r.Get("/audit", handleStaffAudit(d)) // audited itself (audit.read)
		// Money actions through the payment provider: audited in the
		// transaction that records the provider's answer.
		// A refused action (an error answer) is audited by auditRefusals.
		r.With(auditRefusals(d, staffaudit.ActionRefund, true)).Post("/accounts/{id}/refunds", handleStaffRefund(d))
		r.With(auditRefusals(d, staffaudit.ActionCancellation, true)).Post("/accounts/{id}/subscription/cancel", handleStaffCancelSubscription(d))
		// The support inbox. {id} is a support request's, not an account's,
		// so the request's own reads and writes record their audit lines
		// once they know its account.
		r.With(audited(d, staffaudit.ActionSupportInbox)).Get("/support-requests", handleStaffSupportInbox(d))
		r.Get("/support-requests/{id}", handleStaffSupportRequest(d))
		r.With(auditRefusals(d, staffaudit.ActionSupportReply, false)).Post("/support-requests/{id}/replies", handleStaffSupportReply(d))  // audited in its transaction
		r.With(auditRefusals(d, staffaudit.ActionSupportStatus, false)).Post("/support-requests/{id}/status", handleStaffSupportStatus(d)) // audited in its transaction
	})
	// The second factor itself: staff only, before it is passed.
	r.Route("/auth/mfa", func(r chi.Router) {
		r.Use(staffSession(d))
		r.Post("/enroll", handleMFAEnroll(d))
		r.Post("/verify", handleMFAVerify(d))
	})
}
