package main

import "github.com/go-chi/chi/v5"

// addAccountRoutes declares sign-in, profile and account routes.
func addAccountRoutes(r chi.Router, d Deps) {
	r.Get("/plans", handlePlans())
}
