package main

import "github.com/go-chi/chi/v5"

// addPaymentRoutes declares subscription, credit purchase and webhook routes.
func addPaymentRoutes(r chi.Router, d Deps) {}
