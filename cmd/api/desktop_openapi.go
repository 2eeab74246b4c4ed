package main

import (
	_ "embed"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
)

// openAPIDocument describes the /v1 API (OpenAPI 3.1).
//
//go:embed openapi.json
var openAPIDocument []byte

// handleOpenAPI serves openapi.json; it needs no key.
func handleOpenAPI() http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(openAPIDocument)
	}
}

// desktopMethodNotAllowed answers 405 as JSON, with the Allow header listing
// the methods the path does take.
func desktopMethodNotAllowed(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if rctx := chi.RouteContext(r.Context()); rctx != nil && rctx.Routes != nil {
			var allow []string
			for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
				if rctx.Routes.Match(chi.NewRouteContext(), m, r.URL.Path) {
					allow = append(allow, m)
				}
			}
			w.Header().Set("Allow", strings.Join(allow, ", "))
		}
		writeError(w, r, d.Log, errStatus(http.StatusMethodNotAllowed, "Method not allowed"))
	}
}
