package main

import (
	"testing"
)

// quickDecodeSeeds are bodies on which segmentio/encoding and encoding/json
// could part: white space, trailing values and brackets, case-folded,
// duplicate and escaped keys, escapes (a lone surrogate), control
// characters, wrong kinds, unknown and unexported fields, truncation.
var quickDecodeSeeds = []string{
	`{"amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW"}`, `{"brand":"Nike"}`, ` {"brand":"Nike"} ` + "\n\t\r",
	`{"amazonUrl":"a\ud800b"}`, `{"brand":"\uD83D\uDE00\u00e9"}`, `{"AMAZONURL":"x"}`, `{"Brand":"x","BRAND":"y"}`,
	`{"amazon\u0055rl":"z"}`, `{"brand":"x","brand":"y"}`, `{"amazonUrl":"x\/y"}`, `{"product":1}`, `{"brand":"x","product":"y"}`,
	"{\"brand\":\"a\tb\"}", "{\"brand\":\"a\nb\"}", `{"brand":"x",}`, `{'brand':"x"}`, `{"brand":"x"}}`, `{"brand":"x"}]`,
	`{"brand":"x"} {}`, "{\"brand\":\"x\"}\x00", `{"brand":"\x"}`, `{"brand":"x" "y"}`, `{"brand":null}`, `null`, ``, ` `,
	`{"brand":"x"`, `{"brand":true}`, `{"brand":1}`, `{"brand":["x"]}`, `{"brand":{"a":1}}`, `[]`, `"x"`, `{}`, "\xef\xbb\xbf{\"brand\":\"x\"}",
	`{"amazonUrl":"x","brand":"y"}`, `{"brand":"` + string(make([]byte, 0)) + `"}`, `{"brand":"\u0041\u0042"}`, `{"brand":1e400}`,
}

// TestQuickDecodeAgrees: wherever decodedQuickly accepts a metered body,
// encoding/json (decodeStd) accepts it too, with the same value; what it
// does not accept goes to decodeStd, so the answers cannot differ.
func TestQuickDecodeAgrees(t *testing.T) {
	for _, body := range quickDecodeSeeds {
		checkQuickDecode(t, []byte(body))
	}
}

// FuzzQuickDecodeAgrees is TestQuickDecodeAgrees on random bodies: `go test
// -fuzz FuzzQuickDecodeAgrees ./cmd/api` searches further.
func FuzzQuickDecodeAgrees(f *testing.F) {
	for _, body := range quickDecodeSeeds {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) { checkQuickDecode(t, body) })
}

func checkQuickDecode(t *testing.T, body []byte) {
	t.Helper()
	checkQuickDecodeOf[listingRequest](t, body)
	checkQuickDecodeOf[veroCheckRequest](t, body)
}

func checkQuickDecodeOf[T comparable](t *testing.T, body []byte) {
	t.Helper()
	var quick, std T
	ok := decodedQuickly(body, &quick)
	err := decodeStd(body, &std)
	switch {
	case !ok && quick != *new(T):
		t.Errorf("%q: decodedQuickly declined but left %+v behind", body, quick)
	case ok && err != nil:
		t.Errorf("%q: decodedQuickly accepted %+v, encoding/json refuses: %v", body, quick, err)
	case ok && quick != std:
		t.Errorf("%q: decodedQuickly read %+v, encoding/json %+v", body, quick, std)
	}
}

// BenchmarkDecodeListingBody: POST /v1/listings's body read by
// decodedQuickly (segmentio/encoding) and by decodeStd (encoding/json's
// Decoder), which decodeJSON used alone before.
func BenchmarkDecodeListingBody(b *testing.B) {
	body := []byte(`{"amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW"}`)
	b.Run("decodedQuickly", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v listingRequest
			if !decodedQuickly(body, &v) {
				b.Fatal("declined")
			}
		}
	})
	b.Run("decodeStd", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v listingRequest
			if err := decodeStd(body, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
