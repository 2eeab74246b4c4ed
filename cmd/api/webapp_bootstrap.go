package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"
)

// bootstrapPaths are the GETs a signed-in page's first render waits for:
// the product's name (/api/config), the session (/api/user: the app shows
// no signed-in page before it) and the account (/api/user/profile: the
// dashboard's balance).
var bootstrapPaths = []string{"/api/config", "/api/user", "/api/user/profile"}

// bootstrapAnswers asks this server's own routes for bootstrapPaths with the
// page request's cookies, as the app would once its code ran, and returns
// the 200 answers by path (issue 38: the signed-in dashboard renders its
// balance without a network round trip after its code). An answer that is
// not a 200 (no live session: 401; a profile not yet projected: 503) is
// left out, and the app asks for it as before. The requests go through the
// whole route tree (the session check, the access log), not around it.
func bootstrapAnswers(r *http.Request) map[string]json.RawMessage {
	rctx := chi.RouteContext(r.Context())
	if rctx == nil {
		return nil
	}
	tree, ok := rctx.Routes.(http.Handler) // the root mux (the app is its NotFound handler)
	if !ok {
		return nil
	}
	// A new routing pass from the tree's root, not a sub-router's.
	ctx := context.WithValue(r.Context(), chi.RouteCtxKey, (*chi.Context)(nil))
	answers := map[string]json.RawMessage{}
	for _, p := range bootstrapPaths {
		sub, err := http.NewRequestWithContext(ctx, http.MethodGet, p, nil)
		if err != nil {
			continue
		}
		sub.Host, sub.RemoteAddr = r.Host, r.RemoteAddr
		for _, h := range []string{"Cookie", "User-Agent", "X-Forwarded-For", "X-Forwarded-Proto"} {
			if v := r.Header.Values(h); len(v) > 0 {
				sub.Header[h] = v
			}
		}
		sub.Header.Set("Accept", "application/json")
		rec := &answerRecorder{header: http.Header{}}
		tree.ServeHTTP(rec, sub)
		if (rec.status == 0 || rec.status == http.StatusOK) && json.Valid(rec.body.Bytes()) {
			answers[p] = rec.body.Bytes()
		}
	}
	return answers
}

// withBootstrap puts answers in the page's head as one JSON document,
// <script type="application/json" id="a2e-bootstrap">, which the app reads
// before its first request (webapp/src/app/start-early.ts). The JSON is
// HTML-escaped (<, >, & as \u003c…), so no answer can end the script element.
func withBootstrap(page []byte, answers map[string]json.RawMessage) []byte {
	if len(answers) == 0 {
		return page
	}
	doc, err := json.Marshal(answers)
	if err != nil {
		return page
	}
	var escaped bytes.Buffer
	json.HTMLEscape(&escaped, doc)
	end := bytes.Index(page, []byte("</head>"))
	if end < 0 {
		return page
	}
	tag := `    <script type="application/json" id="a2e-bootstrap">` + escaped.String() + "</script>\n"
	out := make([]byte, 0, len(page)+len(tag))
	out = append(out, page[:end]...)
	out = append(out, tag...)
	return append(out, page[end:]...)
}

// answerRecorder keeps a sub-request's status and body.
type answerRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (a *answerRecorder) Header() http.Header { return a.header }

func (a *answerRecorder) WriteHeader(status int) {
	if a.status == 0 {
		a.status = status
	}
}

func (a *answerRecorder) Write(b []byte) (int, error) {
	if a.status == 0 {
		a.status = http.StatusOK
	}
	return a.body.Write(b)
}
