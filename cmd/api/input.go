package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Text that PostgreSQL cannot store (a NUL character, bytes that are not
// UTF-8) is refused where a request is read: the JSON body in decode, the
// path, the query and the headers the API reads in withCleanInput. The
// answer is a 400 naming the field, never a 500 from the database.

// textRule is the problem of a field holding such text.
const textRule = "must be valid UTF-8 text without NUL characters"

// cleanText reports whether s is storable text.
func cleanText(s string) bool {
	return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
}

// printableASCII reports whether s holds only visible ASCII and spaces, as
// keys and identifiers sent in headers must.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// textHeaders are the request headers whose values the API reads as text,
// each by its name and its canonical name.
var textHeaders = []struct{ name, canonical string }{{"Idempotency-Key", "Idempotency-Key"}, {apiKeyHeader, canonicalAPIKey}}

// withCleanInput refuses a request whose path, query parameters or read
// headers hold text that is not storable.
func withCleanInput(d Deps) func(http.Handler) http.Handler {
	refuse := func(w http.ResponseWriter, r *http.Request, field, msg string) {
		writeError(w, r, d.Log, &httpError{Status: http.StatusBadRequest, Message: msg, Fields: map[string]string{field: msg}})
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !cleanText(r.URL.Path) {
				refuse(w, r, "path", "The path "+textRule)
				return
			}
			query, err := parseQuery(r)
			if err != nil {
				refuse(w, r, "query", "The query string is malformed")
				return
			}
			for key, values := range query {
				for _, v := range values {
					if !cleanText(key) || !cleanText(v) {
						name := key
						if !cleanText(name) {
							name = "query"
						}
						refuse(w, r, name, fmt.Sprintf("Query parameter %s %s", strconv.Quote(name), textRule))
						return
					}
				}
			}
			for _, h := range textHeaders {
				if v := headerOf(r.Header, h.canonical); !printableASCII(v) {
					refuse(w, r, h.name, h.name+" must be printable ASCII text")
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

func parseQuery(r *http.Request) (url.Values, error) {
	if r.URL.RawQuery == "" {
		return nil, nil
	}
	return url.ParseQuery(r.URL.RawQuery)
}

// bodyTextProblem names the first string of a JSON body, key or value, that
// is not storable text ("" and false when there is none). It walks the
// tokens only when a quick look finds a candidate: bytes that are not UTF-8
// or an escaped NUL.
func bodyTextProblem(body []byte) (string, bool) {
	bad := -1
	if !utf8.Valid(body) {
		for i := 0; i < len(body); {
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size <= 1 {
				bad = i
				break
			}
			i += size
		}
	}
	if bad < 0 && !bytes.Contains(body, []byte(`\u0000`)) {
		return "", false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var stack []jsonFrame
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return "", false // a syntax error: decode reports it
		}
		end := dec.InputOffset()
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				stack = append(stack, jsonFrame{object: t == '{', expectKey: t == '{'})
				continue
			}
			stack = stack[:len(stack)-1]
		case string:
			broken := strings.IndexByte(t, 0) >= 0 || (bad >= int(start) && bad < int(end))
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].expectKey {
				stack[n-1].key, stack[n-1].expectKey = t, false
				if broken { // the key itself: name the object holding it
					return jsonPath(stack[:n-1]), true
				}
				continue
			}
			if broken {
				return jsonPath(stack), true
			}
		}
		if n := len(stack); n > 0 {
			if stack[n-1].object {
				stack[n-1].expectKey = true
			} else {
				stack[n-1].index++
			}
		}
	}
}

// jsonFrame is one open object or array while walking a JSON body.
type jsonFrame struct {
	object    bool
	expectKey bool
	key       string
	index     int
}

// jsonPath names the value the frames lead to: "brand", "items[2].name",
// or "body" for the whole body.
func jsonPath(stack []jsonFrame) string {
	var b strings.Builder
	for _, f := range stack {
		if f.object {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(f.key)
		} else {
			fmt.Fprintf(&b, "[%d]", f.index)
		}
	}
	if b.Len() == 0 {
		return "body"
	}
	return b.String()
}
