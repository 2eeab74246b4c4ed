package sdk_test

import (
	"bytes"
	"encoding/json"
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
	code           string        // the answer's error code, if any
	retryAfter     time.Duration // of the answer
}

func (a attempt) String() string {
	return fmt.Sprintf("%s %s -> %d %s(Retry-After %s) at +%s", a.method, a.path, a.status, a.code, a.retryAfter,
		a.answered.Sub(a.sent).Round(time.Millisecond))
}

// codeCommitOutcomeUnknown is the answer after which a create may read back.
const codeCommitOutcomeUnknown = "commit_outcome_unknown"

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
		if a.status >= 400 {
			var body struct {
				Code string `json:"code"`
			}
			_ = json.Unmarshal(rec.body.Bytes(), &body)
			a.code = body.Code
		}
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
	body   bytes.Buffer // the first bytes of the answer, for its code
}

// maxRecorded bounds the bytes of an answer kept for its code.
const maxRecorded = 4096

func (s *statusRecorder) Write(b []byte) (int, error) {
	if room := maxRecorded - s.body.Len(); room > 0 {
		s.body.Write(b[:min(len(b), room)])
	}
	return s.ResponseWriter.Write(b)
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

// retryProblems says how attempts (of one runner call) break the SDKs'
// shared behaviour: every attempt of a create carries the first's
// Idempotency-Key and bytes; there are at most maxRetries of them after the
// first, for a create as for a read; a create reads back only after its last
// attempt was answered commit_outcome_unknown, with one request; an attempt
// after an answer with Retry-After waits for it (capped).
func retryProblems(attempts []attempt, maxRetries int) []string {
	var problems []string
	var creates, reads []attempt
	lastCreate, lastUnknown := -1, -1
	for i, a := range attempts {
		if a.method == http.MethodPost {
			creates = append(creates, a)
			lastCreate = i
			if a.code == codeCommitOutcomeUnknown {
				lastUnknown = i
			}
		} else {
			reads = append(reads, a)
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
	if len(creates) == 0 && len(reads) > maxRetries+1 {
		problems = append(problems, fmt.Sprintf("%d attempts of the read with maxRetries %d", len(reads), maxRetries))
	}
	if len(creates) > 0 && len(reads) > 0 {
		switch after := len(attempts) - 1 - lastCreate; {
		case lastUnknown != lastCreate:
			problems = append(problems, "the create read back though its last attempt was not answered "+codeCommitOutcomeUnknown)
		case after != len(reads):
			problems = append(problems, "the create read back before its last attempt")
		case after > 1:
			problems = append(problems, fmt.Sprintf("%d read-backs after the last %s, want at most one request",
				after, codeCommitOutcomeUnknown))
		}
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
	get := func(sent, retryAfter time.Duration) attempt {
		return attempt{method: http.MethodGet, sent: at.Add(sent), answered: at.Add(sent + 10*time.Millisecond), retryAfter: retryAfter}
	}
	unknown := func(sent, retryAfter time.Duration) attempt {
		a := post(sent, "k", "b", retryAfter)
		a.status, a.code = http.StatusServiceUnavailable, codeCommitOutcomeUnknown
		return a
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
		{"reads within maxRetries", []attempt{get(0, 0), get(time.Second, 0)}, 1, 0},
		{"reads past maxRetries", []attempt{get(0, 0), get(time.Second, 0), get(2*time.Second, 0)}, 1, 1},
		{"one read-back after commit_outcome_unknown", []attempt{unknown(0, 0), get(time.Second, 0)}, 0, 0},
		{"two read-backs", []attempt{unknown(0, 0), get(time.Second, 0), get(2*time.Second, 0)}, 0, 1},
		{"two read-backs, even with retries left", []attempt{unknown(0, 0), get(time.Second, 0), get(2*time.Second, 0)}, 3, 1},
		{"a read-back without commit_outcome_unknown", []attempt{post(0, "k", "b", 0), get(time.Second, 0)}, 3, 1},
		{"a read-back before the last create", []attempt{unknown(0, 0), get(time.Second, 0), unknown(2*time.Second, 0)}, 3, 1},
		{"a read-back too soon", []attempt{unknown(0, 2*time.Second), get(time.Second, 0)}, 0, 1},
	} {
		if got := retryProblems(c.attempts, c.max); len(got) != c.problems {
			t.Errorf("%s: %d problems %q, want %d", c.name, len(got), got, c.problems)
		}
	}
}
