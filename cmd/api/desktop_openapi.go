package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"net/http"
)

// openAPIDocument describes the /v1 API (OpenAPI 3.1). Its server and the
// guide's address are written against documentedOrigin; each deployment
// serves them against its own APP_BASE_URL (openAPIFor).
//
//go:embed openapi.json
var openAPIDocument []byte

// openAPIPath is where the document is served, without a key.
const openAPIPath = "/v1/openapi.json"

// documentedOrigin is the origin openapi.json's absolute addresses use.
const documentedOrigin = "http://localhost:8080"

// openAPIFor is the document with its addresses on baseURL, so a generator
// given the served document talks to this deployment.
func openAPIFor(baseURL string) []byte {
	quoted := func(s string) []byte { b, _ := json.Marshal(s); return b[:len(b)-1] } // the opening quote and escapes, no closing quote
	return bytes.ReplaceAll(openAPIDocument, quoted(documentedOrigin+"/"), quoted(baseURL+"/"))
}

// handleOpenAPI serves the document; it needs no key.
func handleOpenAPI(d Deps) http.HandlerFunc {
	doc := openAPIFor(d.Config.BaseURL)
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(doc)
	}
}
