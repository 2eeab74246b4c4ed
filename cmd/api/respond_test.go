package main

import (
	"mime"
	"net/http/httptest"
	"testing"
)

// TestPlainJSONAgreesWithMime: the Content-Types readJSONBody takes without
// parsing are ones mime.ParseMediaType reads as application/json, and a
// type that is not JSON still goes through the parser and is refused.
func TestPlainJSONAgreesWithMime(t *testing.T) {
	t.Parallel()
	for _, ct := range []string{"application/json", "application/json; charset=utf-8", "application/json;charset=utf-8", "application/json; charset=UTF-8"} {
		if !plainJSON(ct) {
			t.Errorf("plainJSON(%q) = false, want true", ct)
		}
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			t.Errorf("mime.ParseMediaType(%q) = %q, %v: plainJSON takes a type the parser would not", ct, mt, err)
		}
	}
	for _, ct := range []string{"text/plain", "application/json5", "application/jsonx; charset=utf-8", "application/json; charset=utf-8; x", "APPLICATION/JSON"} {
		if plainJSON(ct) {
			t.Errorf("plainJSON(%q) = true, want the parser to decide", ct)
		}
	}
	for ct, want := range map[string]bool{"text/plain": false, "application/json; charset=utf-8": true, "Application/JSON": true, "application/xml": false} {
		r := httptest.NewRequest("POST", "/v1/listings", nil)
		r.Header.Set("Content-Type", ct)
		if _, err := readJSONBody(r); (err == nil) != want {
			t.Errorf("readJSONBody with Content-Type %q: err = %v, want accepted %v", ct, err, want)
		}
	}
}
