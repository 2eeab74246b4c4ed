package main

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

// Body problems answer the JSON error body with the status that fits and,
// when one field is at fault, errors naming it, as the SDKs surface them
// (issue 31 item 19).
func TestDesktopBodyProblems(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 100)
	e.grant(1)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(`{"amazonUrl":"` + productURL + `"}`))
	_ = zw.Close()
	for _, c := range []struct {
		what         string
		path         string
		body         any
		header       []string
		status       int
		code         string
		field, error string
	}{
		{"an unknown field", "/v1/listings", map[string]string{"amazonUrl": productURL, "price": "9"}, nil, 400, "invalid_request",
			"price", "price is not a field of this request"},
		{"a number for a string", "/v1/listings", map[string]any{"amazonUrl": 42}, nil, 400, "invalid_request",
			"amazonUrl", "amazonUrl must be a string"},
		{"an unknown VeRO field", "/v1/vero-checks", map[string]any{"brand": "Nike", "x": true}, nil, 400, "invalid_request",
			"x", "x is not a field of this request"},
		{"a gzip body", "/v1/listings", gz.String(), []string{"Content-Encoding", "gzip"}, 415, "unsupported_media_type",
			"Content-Encoding", "Content-Encoding must be absent (or identity)"},
		{"a body over 1 MB", "/v1/listings", `{"amazonUrl":"` + strings.Repeat("x", 2<<20) + `"}`, nil, 413, "request_too_large", "", ""},
	} {
		r := e.call("POST", c.path, c.body, c.header...)
		if r.status != c.status || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
			t.Fatalf("%s = %d %s %s, want %d JSON", c.what, r.status, r.header.Get("Content-Type"), r.body, c.status)
		}
		var got errorBody
		r.json(t, &got)
		if got.Code != c.code || got.Message == "" || got.RequestID == "" {
			t.Fatalf("%s: %s", c.what, r.body)
		}
		if c.field != "" && (len(got.Errors) != 1 || got.Errors[c.field] != c.error) {
			t.Fatalf("%s: errors %v, want %s: %q", c.what, got.Errors, c.field, c.error)
		}
	}
	if b := e.balance(); b != 1 {
		t.Fatalf("refused bodies charged: balance %d", b)
	}
}
