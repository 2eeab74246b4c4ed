package main

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
)

// TestOpenAPIDocument checks the served document against the router: it
// parses, describes the three operations, and every /v1 route chi knows is
// in it (and nothing else), and its references resolve.
func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	r := e.do(request{method: "GET", path: "/v1/openapi.json"})
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
		t.Fatalf("GET /v1/openapi.json = %d %s", r.status, r.header.Get("Content-Type"))
	}
	var doc struct {
		OpenAPI      string                               `json:"openapi"`
		Servers      []struct{ URL string }               `json:"servers"`
		ExternalDocs struct{ URL string }                 `json:"externalDocs"`
		Paths        map[string]map[string]map[string]any `json:"paths"`
	}
	r.json(t, &doc)
	// Absolute addresses on this deployment's APP_BASE_URL, so a generator
	// given the served document needs nothing else.
	base := e.deps.Config.BaseURL
	if !strings.HasPrefix(doc.OpenAPI, "3.1.") || len(doc.Servers) != 1 || doc.Servers[0].URL != base+"/v1" ||
		doc.ExternalDocs.URL != base+"/docs/desktop-api" {
		t.Fatalf("openapi %q, servers %+v, externalDocs %q (base %s)", doc.OpenAPI, doc.Servers, doc.ExternalDocs.URL, base)
	}
	if got := string(openAPIFor("https://x.example")); strings.Count(got, "https://x.example/") != 2 || strings.Contains(got, documentedOrigin) {
		t.Fatalf("openAPIFor left or missed an address")
	}
	// Every keyed operation documents the answers any of them can give;
	// the metered ones those of a body and a charge.
	for path, ops := range doc.Paths {
		for method, op := range ops {
			if path == "/openapi.json" { // no key, nothing but its document or a refusal of bad input
				continue
			}
			want := []string{"400", "401", "405", "429", "500", "503"}
			if method == "post" {
				want = append(want, "402", "403", "413", "415", "422")
			}
			responses, _ := op["responses"].(map[string]any)
			for _, status := range want {
				if responses[status] == nil {
					t.Errorf("%s %s does not document %s", method, path, status)
				}
			}
		}
	}

	var documented, routed []string
	for path, ops := range doc.Paths {
		for method := range ops {
			documented = append(documented, strings.ToUpper(method)+" /v1"+path)
		}
	}
	router := chi.NewRouter()
	addRoutes(router, e.deps.Deps)
	err := chi.Walk(router, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if strings.HasPrefix(route, "/v1/") {
			routed = append(routed, method+" "+route)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(documented)
	slices.Sort(routed)
	if !slices.Equal(documented, routed) {
		t.Fatalf("routes under /v1:\n  %s\ndocumented:\n  %s", strings.Join(routed, "\n  "), strings.Join(documented, "\n  "))
	}

	var whole any
	r.json(t, &whole)
	for _, ref := range refs(whole) {
		if !resolves(whole, ref) {
			t.Errorf("unresolved $ref %s", ref)
		}
	}
}

// refs lists every $ref in v.
func refs(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "$ref" {
				out = append(out, s)
			}
			out = append(out, refs(x)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, refs(x)...)
		}
	}
	return out
}

// resolves reports whether ref, a local JSON pointer, names a part of doc.
func resolves(doc any, ref string) bool {
	p, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		m, ok := doc.(map[string]any)
		if !ok {
			return false
		}
		seg = strings.NewReplacer("~1", "/", "~0", "~").Replace(seg)
		if doc, ok = m[seg]; !ok {
			return false
		}
	}
	return true
}

// The document claims no format for a listing request's amazonUrl that the
// server's accepted addresses break (issue 31, item 18): a product URL
// whose name segment is not ASCII is answered 201, so `format: uri`
// (ASCII only) would make a validating client refuse it.
func TestOpenAPIAmazonURLAcceptsWhatTheServerDoes(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 100)
	e.grant(1)
	const iri = "https://www.amazon.co.jp/アップル-MacBook-Air/dp/B08N5WRWNW"
	expect(t, "a non-ASCII product URL", e.call("POST", "/v1/listings", map[string]string{"amazonUrl": iri}), 201, "")
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]map[string]any `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPIDocument, &doc); err != nil {
		t.Fatal(err)
	}
	for name, s := range doc.Components.Schemas {
		if f, ok := s.Properties["amazonUrl"]["format"]; ok && f == "uri" && strings.Contains(name, "Request") {
			t.Errorf("%s.amazonUrl is format %v, but the server accepts %s", name, f, iri)
		}
	}
}
