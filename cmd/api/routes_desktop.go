package main

import "github.com/go-chi/chi/v5"

// addDesktopRoutes declares the desktop client's metered API under /v1.
func addDesktopRoutes(r chi.Router, d Deps) {}
