package main

import "github.com/go-chi/chi/v5"

// addAccountRoutes declares sign-in, profile and account routes.
func addAccountRoutes(r chi.Router, d Deps) {
	r.Get("/plans", handlePlans())
	r.Get("/pages/{slug}", handlePage(d))

	t := newThrottles(d)
	r.With(t.byIP(msgSignUpDown)).Post("/register", handleRegister(d))
	r.With(t.byIP(msgSignInDown)).Post("/login", handleLogin(d, t))
	r.With(t.byIP(msgResetDown)).Post("/auth/reset-password", handleResetRequest(d))
	r.With(t.byIP(msgResetDown)).Post("/auth/reset-password/complete", handleResetComplete(d))
	r.Post("/logout", handleLogout(d))

	r.Group(func(r chi.Router) {
		r.Use(requireSession(d))
		r.Get("/user", handleUser(d))
		r.Post("/auth/verify-email", handleVerifyEmail(d))
		r.Post("/auth/resend-verification", handleResendVerification(d))
		r.Get("/user/profile", handleProfile(d))
		r.Post("/user/api-key/regenerate", handleRegenerateAPIKey(d))
		r.Get("/api-keys", handleListAPIKeys(d))
		r.Post("/api-keys", handleCreateAPIKey(d))
		r.Delete("/api-keys/{id}", handleRevokeAPIKey(d))
		r.Post("/api-keys/{id}/rotate", handleRotateAPIKey(d))
		r.Get("/sandbox", handleGetSandbox(d))
		r.Post("/sandbox/reset", handleResetSandbox(d))
		r.Get("/account/alerts", handleGetAlerts(d))
		r.Put("/account/alerts", handlePutAlerts(d))
		r.Get("/usage-statistics", handleUsageStatistics(d))
		r.Get("/transactions", handleTransactions(d))
		r.Get("/transactions/{id}", handleTransaction(d))
		r.Get("/account/spend-limits", handleGetSpendLimits(d))
		r.Put("/account/spend-limits", handlePutSpendLimits(d))
		r.Get("/account/auto-recharge", handleGetAutoRecharge(d))
		r.Put("/account/auto-recharge", handlePutAutoRecharge(d))
		r.Post("/account/auto-recharge/confirmation", handleConfirmRechargePayment(d))
		r.Post("/account/payment-method", handleSavePaymentMethod(d))
		r.Delete("/account/payment-method", handleRemovePaymentMethod(d))
		r.Get("/transactions.csv", handleTransactionsCSV(d))
		r.Get("/usage/daily", handleUsageDaily(d))
		r.Get("/usage/daily.csv", handleUsageDailyCSV(d))
		r.Post("/webhooks/endpoints", handleAddWebhookEndpoint(d))
		r.Get("/webhooks/endpoints", handleWebhookEndpoints(d))
		r.Delete("/webhooks/endpoints/{id}", handleRemoveWebhookEndpoint(d))
		r.Post("/webhooks/endpoints/{id}/roll-secret", handleRollWebhookSecret(d))
		r.Get("/webhooks/endpoints/{id}/deliveries", handleWebhookDeliveries(d))
		r.Post("/webhooks/endpoints/{id}/deliveries/{deliveryId}/resend", handleResendWebhookDelivery(d))
		r.Post("/support/requests", handleSupportRequest(d))
		r.Get("/support/requests", handleSupportRequests(d))
		r.Get("/download/windows", handleDownloadWindows(d))
		r.Post("/download/windows/link", handleDownloadLink(d))
	})

	if d.Config.IsDevelopment() {
		r.With(loopbackOnly(d)).Get("/dev/mail", handleDevMail(d))
	}
}
