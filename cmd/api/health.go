package main

import (
	"context"
	"net/http"
	"time"

	"github.com/a2e-automation/app/migrations"
)

func handleHealthz() http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		encode(w, http.StatusOK, map[string]string{"status": "ok"})
	}
}

// handleReadyz answers 200 when the database is reachable and every
// migration is applied.
func handleReadyz(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
		defer cancel()
		if err := d.Pool.Ping(ctx); err != nil {
			encode(w, http.StatusServiceUnavailable, map[string]string{"status": "database unreachable"})
			return
		}
		pending, err := migrations.Pending(ctx, d.DatabaseURL)
		if err != nil || pending > 0 {
			encode(w, http.StatusServiceUnavailable, map[string]any{"status": "migrations pending", "pending": pending})
			return
		}
		encode(w, http.StatusOK, map[string]string{"status": "ready"})
	}
}
