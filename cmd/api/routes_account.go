package main

import "github.com/go-chi/chi/v5"

// addAccountRoutes declares sign-in, profile and account routes.
func addAccountRoutes(r chi.Router, d Deps) {
	r.Get("/plans", handlePlans())

	r.Group(func(r chi.Router) {
		r.Use(requireSession(d))
		r.Get("/user/profile", handleProfile(d))
		r.Post("/user/api-key/regenerate", handleRegenerateAPIKey(d))
		r.Get("/usage-statistics", handleUsageStatistics(d))
		r.Get("/transactions", handleTransactions(d))
	})
}
