package stripemock

import (
	"bytes"
	"io"
	"net/http"
	neturl "net/url"
	"sync"
	"testing"
)

// Sent is one request the Stripe client made.
type Sent struct {
	Method, Path string
	Form         neturl.Values
	Header       http.Header
}

// Recorder is an http.RoundTripper that passes requests on and remembers
// them: stripe-mock answers with fixtures, so what the client sent is what
// a test can check.
type Recorder struct {
	mu   sync.Mutex
	reqs []Sent
}

// RoundTrip implements http.RoundTripper.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	form, err := neturl.ParseQuery(string(body))
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.reqs = append(r.reqs, Sent{Method: req.Method, Path: req.URL.Path, Form: form, Header: req.Header.Clone()})
	r.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

// Last is the last request sent.
func (r *Recorder) Last(t *testing.T) Sent {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.reqs) == 0 {
		t.Fatal("no request sent")
	}
	return r.reqs[len(r.reqs)-1]
}
