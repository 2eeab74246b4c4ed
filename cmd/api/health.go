package main

import (
	"context"
	"net/http"
	"time"
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
		switch problem, pending := d.Readiness.Check(ctx); problem {
		case "":
		case "migrations pending":
			encode(w, http.StatusServiceUnavailable, map[string]any{"status": problem, "pending": pending})
			return
		default:
			encode(w, http.StatusServiceUnavailable, map[string]string{"status": problem})
			return
		}
		encode(w, http.StatusOK, map[string]string{"status": "ready"})
	}
}
