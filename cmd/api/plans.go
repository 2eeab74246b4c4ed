package main

import (
	"net/http"

	"github.com/a2e-automation/app/internal/catalog"
)

// handlePlans serves the catalogue, the single source of prices.
func handlePlans() http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		encode(w, http.StatusOK, catalog.Get())
	}
}
