package main

import (
	"context"
	"io"
	"log/slog"
	"math"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts/accountstest"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/testdb"
	"github.com/a2e-automation/app/projections"
)

// BenchmarkListing measures POST /v1/listings through the real router on a
// real PostgreSQL with the projector running: authentication, rate limit,
// the charge and the wait for the read tables (newTestEnv needs a
// *testing.T, hence the set-up here).
func BenchmarkListing(b *testing.B) {
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	cfg.RateLimitPerMinute = math.MaxInt32
	url := testdb.NewURL(b)
	pool := testdb.Pool(b, url)
	d, err := newDeps(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), pool, url)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = d.Projections.Run(ctx, projections.RunOptions{PollInterval: 20 * time.Millisecond})
	}()
	b.Cleanup(func() { cancel(); <-done })
	h, err := NewServer(d)
	if err != nil {
		b.Fatal(err)
	}
	s, err := d.Accounts.Register(context.Background(), d.Keys, "bench@example.com", "not-a-real-hash", eventstore.Metadata{Actor: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	accountstest.Do(b, d.Accounts, s.AccountID, accountstest.Grant(1_000_000_000, domain.SourcePurchase, nil))

	const body = `{"amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW"}`
	for b.Loop() {
		req := httptest.NewRequest("POST", "/v1/listings", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-API-Key", s.APIKey)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 201 {
			b.Fatalf("POST /v1/listings = %d %s", rec.Code, rec.Body)
		}
	}
}
