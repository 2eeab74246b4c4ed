package main

import (
	_ "embed"
	"net/http"
)

// openAPIDocument describes the /v1 API (OpenAPI 3.1).
//
//go:embed openapi.json
var openAPIDocument []byte

// openAPIPath is where the document is served, without a key.
const openAPIPath = "/v1/openapi.json"

// handleOpenAPI serves openapi.json; it needs no key.
func handleOpenAPI() http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(openAPIDocument)
	}
}
