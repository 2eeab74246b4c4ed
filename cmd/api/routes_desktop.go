package main

import "github.com/go-chi/chi/v5"

// addDesktopRoutes declares the desktop client's metered API under /v1.
// openapi.json describes every route here; a test keeps the two in step.
func addDesktopRoutes(r chi.Router, d Deps) {
	r.Use(withSandbox(d)) // a2e_test_ keys are served by test mode (desktop_sandbox.go)
	r.Get("/openapi.json", handleOpenAPI(d))
	r.Group(func(r chi.Router) { // free reads: the key looked up each time
		r.Use(withAPIKey(d))
		r.Get("/account", handleDesktopAccount(d))
		r.Get("/listings", handleListListings(d))
		r.Get("/listings/{id}", handleGetListing(d))
	})
	r.Group(func(r chi.Router) { // metered: the key remembered, checked by the command
		r.Use(withRememberedAPIKey(d))
		r.Post("/listings", handleCreateListing(d))
		r.Post("/vero-checks", handleVeroCheck(d))
	})
}
