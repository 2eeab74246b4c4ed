package sdk_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"
)

// attempt is one HTTP request of a runner, as the recorder saw it.
type attempt struct {
	method, path   string
	idempotencyKey string
	body           []byte
	sent, answered time.Time
	status         int
	retryAfter     time.Duration // of the answer
}

func (a attempt) String() string {
	return fmt.Sprintf("%s %s -> %d (Retry-After %s) at +%s", a.method, a.path, a.status, a.retryAfter,
		a.answered.Sub(a.sent).Round(time.Millisecond))
}

// recorder stands between a runner and bin/api: it sees every attempt the
// SDK makes, and arranges the server right before the first attempt reaches
// bin/api (before) and right after bin/api has answered it (after).
type recorder struct {
	srv *httptest.Server

	mu            sync.Mutex
	before, after func() error
	err           error // of before or after
	attempts      []attempt
}

func newRecorder(target string, before, after func() error) *recorder {
	u, err := url.Parse(target)
	if err != nil {
		panic(err) // the server's own address
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	r := &recorder{before: before, after: after}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		r.mu.Lock()
		if r.before != nil {
			r.err, r.before = r.before(), nil
		}
		r.mu.Unlock()
		a := attempt{method: req.Method, path: req.URL.RequestURI(), idempotencyKey: req.Header.Get("Idempotency-Key"),
			body: body, sent: time.Now()}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		proxy.ServeHTTP(rec, req)
		a.answered, a.status = time.Now(), rec.status
		if s, err := strconv.Atoi(w.Header().Get("Retry-After")); err == nil {
			a.retryAfter = time.Duration(s) * time.Second
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		r.attempts = append(r.attempts, a)
		if r.after != nil {
			if err := r.after(); err != nil && r.err == nil {
				r.err = err
			}
			r.after = nil
		}
	}))
	return r
}

// URL is the runner's A2E_BASE_URL.
func (r *recorder) URL() string { return r.srv.URL }

// close stops the recorder and answers what it saw, and the error of the
// arrangement, if any.
func (r *recorder) close() ([]attempt, error) {
	r.srv.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.attempts, r.err
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// Flush lets the reverse proxy flush through the recorder.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// maxRetryAfter is the SDKs' cap on a Retry-After wait (sdk/README.md).
const maxRetryAfter = 20 * time.Second

// defaultMaxRetries is the SDKs' maxRetries when not given.
const defaultMaxRetries = 3

// retryProblems says how attempts break the SDKs' shared behaviour: every
// attempt of a create carries the first's Idempotency-Key and bytes; there
// are at most maxRetries of them after the first; an attempt after an answer
// with Retry-After waits for it (capped).
func retryProblems(attempts []attempt, maxRetries int) []string {
	var problems []string
	var creates []attempt
	for i, a := range attempts {
		if a.method == http.MethodPost {
			creates = append(creates, a)
		}
		if i == 0 {
			continue
		}
		prev := attempts[i-1]
		if want, gap := min(prev.retryAfter, maxRetryAfter), a.sent.Sub(prev.answered); gap < want {
			problems = append(problems, fmt.Sprintf("attempt %d came %s after an answer with Retry-After %s",
				i+1, gap.Round(time.Millisecond), prev.retryAfter))
		}
	}
	if len(creates) > maxRetries+1 {
		problems = append(problems, fmt.Sprintf("%d attempts of the create with maxRetries %d", len(creates), maxRetries))
	}
	for i, c := range creates {
		if c.idempotencyKey == "" {
			problems = append(problems, fmt.Sprintf("attempt %d of the create has no Idempotency-Key", i+1))
		} else if c.idempotencyKey != creates[0].idempotencyKey || !bytes.Equal(c.body, creates[0].body) {
			problems = append(problems, fmt.Sprintf("attempt %d of the create changed its Idempotency-Key or bytes", i+1))
		}
	}
	return problems
}

func TestRetryProblems(t *testing.T) {
	at := time.Now()
	post := func(sent time.Duration, key, body string, retryAfter time.Duration) attempt {
		return attempt{method: http.MethodPost, idempotencyKey: key, body: []byte(body),
			sent: at.Add(sent), answered: at.Add(sent + 10*time.Millisecond), retryAfter: retryAfter}
	}
	for _, c := range []struct {
		name     string
		attempts []attempt
		max      int
		problems int
	}{
		{"one attempt", []attempt{post(0, "k", "b", 0)}, 3, 0},
		{"a retry after Retry-After", []attempt{post(0, "k", "b", 2*time.Second), post(3*time.Second, "k", "b", 0)}, 3, 0},
		{"a retry too soon", []attempt{post(0, "k", "b", 2*time.Second), post(time.Second, "k", "b", 0)}, 3, 1},
		{"a capped Retry-After", []attempt{post(0, "k", "b", time.Hour), post(21*time.Second, "k", "b", 0)}, 3, 0},
		{"another key", []attempt{post(0, "k", "b", 0), post(time.Second, "j", "b", 0)}, 3, 1},
		{"other bytes", []attempt{post(0, "k", "b", 0), post(time.Second, "k", "c", 0)}, 3, 1},
		{"no key", []attempt{post(0, "", "b", 0)}, 3, 1},
		{"past maxRetries", []attempt{post(0, "k", "b", 0), post(time.Second, "k", "b", 0)}, 0, 1},
	} {
		if got := retryProblems(c.attempts, c.max); len(got) != c.problems {
			t.Errorf("%s: %d problems %q, want %d", c.name, len(got), got, c.problems)
		}
	}
}
