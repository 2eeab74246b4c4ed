package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/listings"
	"github.com/a2e-automation/app/internal/startup"
)

// BenchmarkSpendHTTPLayer: POST /v1/listings through the router's own
// middleware (the request's scope and deadline, the response counts, the
// access log to io.Discard, recover) and a /v1 sub-router, the handler
// decoding the body and Idempotency-Key as the spend does and writing a
// kept answer: the HTTP layer without the database.
func BenchmarkSpendHTTPLayer(b *testing.B) {
	d := Deps{}
	d.Log = startup.NewLogger(io.Discard, "info")
	d.Registry = prometheus.NewRegistry()
	d.Config.RequestTimeout = 20 * time.Second // REQUEST_TIMEOUT's default
	h := spendLayer(d, func(r chi.Router) {
		r.Use(withResponseCounts(d.Registry), withAccessLog(d.Log), withRecover(d))
		r.Route("/v1", func(r chi.Router) {
			r.Post("/listings", func(w http.ResponseWriter, r *http.Request) {
				req, idem, err := decodeMetered[listingRequest](r, listings.KeyPrefix)
				if err != nil {
					writeError(w, r, d.Log, err)
					return
				}
				_ = spendOf(r, idem)
				_ = req
				writeMetered(w, http.StatusCreated, command.Metered{Body: []byte(`{"id":"x","creditsRemaining":1}`)})
			})
		})
	})
	const body = `{"amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW"}`
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("POST", "/v1/listings", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", "k-1")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 201 {
			b.Fatalf("= %d %s", rec.Code, rec.Body)
		}
	}
}

// spendLayer is the router as NewServer fronts it: withRoutedRequest in
// front of mux, whose routes add adds.
func spendLayer(d Deps, add func(chi.Router)) http.Handler {
	mux := chi.NewRouter()
	add(mux)
	return withRoutedRequest(d.Config.RequestTimeout, mux)
}
