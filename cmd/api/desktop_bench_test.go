package main

import (
	"math"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/testing/accountstest"
)

// BenchmarkListing measures POST /v1/listings through the real router on a
// real PostgreSQL with the projector running: authentication, rate limit,
// the charge and the wait for the read tables.
func BenchmarkListing(b *testing.B) {
	e := newTestEnv(b, func(c *config.Config) { c.RateLimitPerMinute = math.MaxInt32 })
	s := e.seedAccount("bench@example.com")
	accountstest.Do(b, e.repo(), s.ID, accountstest.Grant(1_000_000_000, domain.SourcePurchase, nil))

	const body = `{"amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW"}`
	for b.Loop() {
		req := httptest.NewRequest("POST", "/v1/listings", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-API-Key", s.APIKey)
		rec := httptest.NewRecorder()
		e.handler.ServeHTTP(rec, req)
		if rec.Code != 201 {
			b.Fatalf("POST /v1/listings = %d %s", rec.Code, rec.Body)
		}
	}
}
