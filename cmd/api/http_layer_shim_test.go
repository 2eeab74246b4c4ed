package main

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// spendLayer is the router as NewServer fronts it: withRoutedRequest in
// front of mux, whose routes add adds.
func spendLayer(d Deps, add func(chi.Router)) http.Handler {
	mux := chi.NewRouter()
	add(mux)
	return withRoutedRequest(d.Config.RequestTimeout, mux)
}
