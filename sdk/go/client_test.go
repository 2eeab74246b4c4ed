package a2e_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	a2e "github.com/a2e-automation/app/sdk/go"
)

const testKey = "a2e_live_secret_key_for_tests"

// attempt is one request the test server received.
type attempt struct {
	method, path, query string
	header              http.Header
	body                []byte
}

// server is an httptest server answering with handle, which gets the
// attempt's number (from 0); it records the attempts, and its client
// records the waits between them instead of sleeping.
type server struct {
	t        *testing.T
	handle   func(w http.ResponseWriter, r *http.Request, n int)
	mu       sync.Mutex
	attempts []attempt
	waits    []time.Duration
	url      string
}

func newServer(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, n int)) *server {
	s := &server{t: t, handle: handle}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		n := len(s.attempts)
		s.attempts = append(s.attempts, attempt{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, r.Header.Clone(), body})
		s.mu.Unlock()
		s.handle(w, r, n)
	}))
	t.Cleanup(ts.Close)
	s.url = ts.URL
	return s
}

// client is a client of s; it never really sleeps.
func (s *server) client(opts ...a2e.Option) *a2e.Client {
	sleep := func(ctx context.Context, d time.Duration) error {
		s.mu.Lock()
		s.waits = append(s.waits, d)
		s.mu.Unlock()
		return ctx.Err()
	}
	return a2e.NewClient(testKey, append([]a2e.Option{a2e.WithBaseURL(s.url + "/"), a2e.WithSleep(sleep)}, opts...)...)
}

func (s *server) recorded() ([]attempt, []time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]attempt(nil), s.attempts...), append([]time.Duration(nil), s.waits...)
}

// reply writes a JSON answer with status and headers given as name, value pairs.
func reply(w http.ResponseWriter, status int, body string, headers ...string) {
	for i := 0; i+1 < len(headers); i += 2 {
		w.Header().Set(headers[i], headers[i+1])
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// cut closes the connection without an answer.
func cut(t *testing.T, w http.ResponseWriter) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		t.Error(err)
		return
	}
	conn.Close()
}

const listingJSON = `{"id":"L1","asin":"B08N5WRWNW","amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW","status":"queued","creditsRemaining":4,"createdAt":"2026-01-02T03:04:05.123456Z"}`

const amazonURL = "https://www.amazon.com/dp/B08N5WRWNW"

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestCreateRetriesWithTheSameKeyAndBody(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch n {
		case 0:
			// A fresh connection for the cut: net/http itself retries a keyed
			// request once when a reused connection fails.
			reply(w, 503, `{"code":"service_unavailable","message":"down","requestId":"r0"}`, "Retry-After", "5", "Connection", "close")
		case 1:
			cut(t, w)
		case 2:
			reply(w, 429, `{"code":"rate_limited","message":"slow down","requestId":"r2"}`, "Retry-After", "60")
		default:
			reply(w, 201, listingJSON)
		}
	})
	l, err := s.client().Listings.Create(context.Background(), a2e.CreateListingParams{AmazonURL: amazonURL})
	if err != nil {
		t.Fatal(err)
	}
	attempts, waits := s.recorded()
	if len(attempts) != 4 {
		t.Fatalf("%d attempts, want 4", len(attempts))
	}
	key := attempts[0].header.Get("Idempotency-Key")
	if !uuidV4.MatchString(key) || l.IdempotencyKey != key {
		t.Errorf("key sent %q, on the listing %q: want one UUID v4", key, l.IdempotencyKey)
	}
	for i, a := range attempts {
		if a.method != "POST" || a.path != "/v1/listings" || a.header.Get("Idempotency-Key") != key ||
			!bytes.Equal(a.body, attempts[0].body) || a.header.Get("X-API-Key") != testKey ||
			a.header.Get("Content-Type") != "application/json" {
			t.Errorf("attempt %d = %s %s key %q body %s: want the first one's", i, a.method, a.path,
				a.header.Get("Idempotency-Key"), a.body)
		}
	}
	if string(attempts[0].body) != `{"amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW"}` {
		t.Errorf("body %s", attempts[0].body)
	}
	// Retry-After 5 s as said, a jittered backoff after the cut, 60 s capped at 20 s.
	if len(waits) != 3 || waits[0] != 5*time.Second || waits[1] < 0 || waits[1] > time.Second || waits[2] != 20*time.Second {
		t.Errorf("waits %v, want [5s, 0–1s, 20s]", waits)
	}
	want := a2e.Listing{ID: "L1", ASIN: "B08N5WRWNW", AmazonURL: amazonURL, Status: "queued",
		CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 123456000, time.UTC), IdempotencyKey: key}
	if l.CreditsRemaining == nil || *l.CreditsRemaining != 4 {
		t.Errorf("CreditsRemaining %v, want 4", l.CreditsRemaining)
	}
	l.CreditsRemaining = nil
	if !l.CreatedAt.Equal(want.CreatedAt) || fmt.Sprint(*l) != fmt.Sprint(want) {
		t.Errorf("listing %+v, want %+v", *l, want)
	}
}

func TestBackoffWithoutRetryAfterIsJitteredAndBounded(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		reply(w, 502, `{}`)
	})
	_, err := s.client(a2e.WithMaxRetries(6)).Account.Retrieve(context.Background())
	if !errors.Is(err, a2e.ErrInternal) {
		t.Fatalf("err %v, want ErrInternal", err)
	}
	attempts, waits := s.recorded()
	if len(attempts) != 7 || len(waits) != 6 {
		t.Fatalf("%d attempts, %d waits; want 7 and 6", len(attempts), len(waits))
	}
	for i, d := range waits {
		ceiling := min(500*time.Millisecond<<i, 8*time.Second)
		if d < 0 || d > ceiling {
			t.Errorf("wait %d = %v, want 0 to %v", i, d, ceiling)
		}
	}
}

func TestRetriesRunOut(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		reply(w, 503, `{"code":"service_unavailable","message":"The service is briefly unavailable.","requestId":"r`+fmt.Sprint(n)+`"}`, "Retry-After", "2")
	})
	_, err := s.client().Listings.Create(context.Background(), a2e.CreateListingParams{AmazonURL: amazonURL, IdempotencyKey: "k-503"})
	var e *a2e.Error
	if !errors.As(err, &e) || !errors.Is(err, a2e.ErrUnavailable) {
		t.Fatalf("err %v, want an *Error matching ErrUnavailable", err)
	}
	attempts, _ := s.recorded()
	if len(attempts) != 4 || e.Status != 503 || e.Code != "service_unavailable" || e.RequestID != "r3" ||
		e.RetryAfter != 2*time.Second || e.IdempotencyKey != "k-503" || e.OutcomeUnknown {
		t.Errorf("%d attempts, error %+v", len(attempts), e)
	}
}

func TestConnectionFailures(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) { cut(t, w) })
	_, err := s.client().Listings.Create(context.Background(), a2e.CreateListingParams{AmazonURL: amazonURL, IdempotencyKey: "k-cut"})
	var e *a2e.Error
	if !errors.As(err, &e) || !errors.Is(err, a2e.ErrConnection) || e.Status != 0 || e.IdempotencyKey != "k-cut" {
		t.Fatalf("err %#v, want a connection *Error with the key", err)
	}
	if attempts, waits := s.recorded(); len(attempts) != 4 || len(waits) != 3 {
		t.Errorf("%d attempts, %d waits; want 4 and 3", len(attempts), len(waits))
	}
}

func TestAnAttemptTimesOutAndIsRetried(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		reply(w, 200, `{"email":"a@example.com","creditsAvailable":3,"monthlyCreditsExpireAt":null}`)
	})
	a, err := s.client(a2e.WithTimeout(50 * time.Millisecond)).Account.Retrieve(context.Background())
	if err != nil || a.CreditsAvailable != 3 || a.Email != "a@example.com" || a.MonthlyCreditsExpireAt != nil {
		t.Fatalf("account %+v, err %v", a, err)
	}
}

func TestTheContextBoundsTheCall(t *testing.T) {
	t.Run("a deadline before the next attempt: the last error at once", func(t *testing.T) {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) { reply(w, 503, `{}`, "Retry-After", "5") })
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err := s.client().Account.Retrieve(ctx)
		if attempts, waits := s.recorded(); !errors.Is(err, a2e.ErrUnavailable) || len(attempts) != 1 || len(waits) != 0 {
			t.Fatalf("err %v after %d attempts and waits %v", err, len(attempts), waits)
		}
	})
	t.Run("cancelled during an attempt", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
			cancel()
			<-r.Context().Done()
		})
		_, err := s.client().Listings.Create(ctx, a2e.CreateListingParams{AmazonURL: amazonURL, IdempotencyKey: "k-ctx"})
		var e *a2e.Error
		if !errors.Is(err, context.Canceled) || !errors.Is(err, a2e.ErrConnection) || !errors.As(err, &e) || e.IdempotencyKey != "k-ctx" {
			t.Fatalf("err %v, want a connection *Error wrapping context.Canceled, with the key", err)
		}
		if attempts, _ := s.recorded(); len(attempts) != 1 {
			t.Errorf("%d attempts, want 1", len(attempts))
		}
	})
}

const commitUnknown = `{"code":"commit_outcome_unknown","message":"We could not confirm whether this request was applied.","requestId":"rc"}`

func TestErrorKinds(t *testing.T) {
	sentinels := []error{a2e.ErrAuthentication, a2e.ErrInsufficientCredits, a2e.ErrSpendLimitReached, a2e.ErrSpendingFrozen, a2e.ErrNotFound,
		a2e.ErrInvalidRequest, a2e.ErrIdempotencyKeyReused, a2e.ErrRateLimited, a2e.ErrUnavailable, a2e.ErrInternal, a2e.ErrConnection}
	for _, c := range []struct {
		status int
		code   string
		want   error // nil: none
	}{
		{400, "invalid_request", a2e.ErrInvalidRequest},
		{401, "api_key_missing", a2e.ErrAuthentication},
		{401, "api_key_invalid", a2e.ErrAuthentication},
		{402, "insufficient_credits", a2e.ErrInsufficientCredits},
		{402, "spend_limit_reached", a2e.ErrSpendLimitReached},
		{403, "spending_frozen", a2e.ErrSpendingFrozen},
		{403, "forbidden", nil},
		{404, "not_found", a2e.ErrNotFound},
		{405, "method_not_allowed", a2e.ErrInvalidRequest},
		{409, "conflict", nil},
		{413, "request_too_large", a2e.ErrInvalidRequest},
		{415, "unsupported_media_type", a2e.ErrInvalidRequest},
		{422, "idempotency_key_reused", a2e.ErrIdempotencyKeyReused},
		{422, "unprocessable", a2e.ErrInvalidRequest}, // every SDK: a 422 but a reused key is an invalid request
		{429, "rate_limited", a2e.ErrRateLimited},
		{500, "internal_error", a2e.ErrInternal},
		{502, "", a2e.ErrInternal},
		{503, "service_unavailable", a2e.ErrUnavailable},
		{503, "commit_outcome_unknown", a2e.ErrUnavailable},
		{0, "", a2e.ErrConnection},
	} {
		e := &a2e.Error{Status: c.status, Code: c.code}
		for _, s := range sentinels {
			if got := errors.Is(e, s); got != (s == c.want) {
				t.Errorf("%d %s: errors.Is(%v) = %v", c.status, c.code, s, got)
			}
		}
	}
}

// The bodies of errors that cases.json does not check (test TestCases in
// conformance/runner): the error string, the fields, what is not JSON.
func TestErrorBodies(t *testing.T) {
	t.Run("402", func(t *testing.T) {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
			reply(w, 402, `{"code":"insufficient_credits","message":"Insufficient credits","requestId":"r402","creditsRemaining":0}`)
		})
		_, err := s.client().Listings.Create(context.Background(), a2e.CreateListingParams{AmazonURL: amazonURL, IdempotencyKey: "k"})
		var e *a2e.Error
		if !errors.As(err, &e) || e.CreditsRemaining == nil || *e.CreditsRemaining != 0 || e.RequestID != "r402" ||
			e.Error() != "a2e: 402 insufficient_credits: Insufficient credits (request r402)" {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("400 with fields", func(t *testing.T) {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
			reply(w, 400, `{"code":"invalid_request","message":"bad url","requestId":"r400","errors":{"amazonUrl":"bad url"}}`)
		})
		_, err := s.client().Listings.Create(context.Background(), a2e.CreateListingParams{AmazonURL: "x"})
		var e *a2e.Error
		if !errors.As(err, &e) || e.Fields["amazonUrl"] != "bad url" || e.CreditsRemaining != nil || !errors.Is(err, a2e.ErrInvalidRequest) {
			t.Fatalf("err %+v", err)
		}
	})
	t.Run("not JSON", func(t *testing.T) {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
			w.Header().Set("X-Request-ID", "rproxy")
			w.WriteHeader(504)
			_, _ = io.WriteString(w, "<html>gateway timeout</html>")
		})
		_, err := s.client(a2e.WithMaxRetries(0)).Listings.Retrieve(context.Background(), "L1")
		var e *a2e.Error
		if !errors.As(err, &e) || e.Message != "Gateway Timeout" || e.RequestID != "rproxy" || !errors.Is(err, a2e.ErrInternal) {
			t.Fatalf("err %+v", err)
		}
	})
	t.Run("a success that is not JSON", func(t *testing.T) {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) { reply(w, 200, "<html>") })
		_, err := s.client().Account.Retrieve(context.Background())
		var e *a2e.Error
		if !errors.As(err, &e) || e.Status != 200 || errors.Is(err, a2e.ErrConnection) {
			t.Fatalf("err %+v", err)
		}
	})
}

func TestReads(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch {
		case r.URL.Path == "/v1/listings" && r.URL.Query().Get("idempotencyKey") == "none":
			reply(w, 200, `{"data":[],"nextCursor":null}`)
		case r.URL.Path == "/v1/listings":
			reply(w, 200, `{"data":[`+listingJSON+`],"nextCursor":"c2"}`)
		default:
			reply(w, 200, listingJSON)
		}
	})
	c := s.client()
	ctx := context.Background()
	page, err := c.Listings.List(ctx, a2e.ListListingsParams{Limit: 2, Cursor: "c1"})
	if err != nil || len(page.Data) != 1 || page.NextCursor != "c2" {
		t.Fatalf("page %+v, err %v", page, err)
	}
	if _, err := c.Listings.Retrieve(ctx, "a/b"); err != nil {
		t.Fatal(err)
	}
	l, err := c.Listings.FindByIdempotencyKey(ctx, "none")
	if l != nil || err != nil {
		t.Fatalf("listing %+v, err %v; want nil, nil", l, err)
	}
	attempts, _ := s.recorded()
	want := []string{"GET /v1/listings?cursor=c1&limit=2", "GET /v1/listings/a%2Fb?", "GET /v1/listings?idempotencyKey=none"}
	if len(attempts) != len(want) {
		t.Fatalf("%d attempts, want %d", len(attempts), len(want))
	}
	for i, a := range attempts {
		got := a.method + " " + a.path + "?" + a.query
		if got != want[i] || a.header.Get("Idempotency-Key") != "" || a.header.Get("X-API-Key") != testKey ||
			a.header.Get("User-Agent") != "a2e-sdk-go/"+a2e.Version {
			t.Errorf("attempt %d = %s %v, want %s", i, got, a.header, want[i])
		}
	}
}

func TestTheAPIKeyIsNeverShown(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		reply(w, 401, `{"code":"api_key_invalid","message":"Invalid API key","requestId":"r"}`)
	})
	c := s.client()
	_, err := c.Account.Retrieve(context.Background())
	_, cerr := a2e.NewClient(testKey, a2e.WithBaseURL("http://127.0.0.1:1"), a2e.WithMaxRetries(0)).Account.Retrieve(context.Background())
	held := struct {
		client a2e.Client
		ptr    *a2e.Client
	}{*c, c}
	for _, shown := range []string{fmt.Sprint(c), fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c), fmt.Sprintf("%+v", err),
		fmt.Sprintf("%#v", err), fmt.Sprintf("%+v", cerr), fmt.Sprintf("%+v", *c.Listings),
		fmt.Sprint(*c), fmt.Sprintf("%v", *c), fmt.Sprintf("%+v", *c), fmt.Sprintf("%#v", *c), fmt.Sprintf("%s", *c),
		fmt.Sprintf("%+v", held), fmt.Sprintf("%#v", held), fmt.Sprintf("%+v", *c.Account)} {
		if strings.Contains(shown, testKey) {
			t.Errorf("the API key is shown: %s", shown)
		}
	}
}

func TestRedirectsAreNotFollowed(t *testing.T) {
	var leaked atomic.Bool
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(r.Header.Get("X-API-Key") != "")
	}))
	defer elsewhere.Close()
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		http.Redirect(w, r, elsewhere.URL+"/v1/account", http.StatusFound)
	})
	_, err := s.client().Account.Retrieve(context.Background())
	var e *a2e.Error
	if !errors.As(err, &e) || e.Status != http.StatusFound || leaked.Load() {
		t.Fatalf("err %v, key sent elsewhere %v", err, leaked.Load())
	}
}

func TestTheBaseURLIsRequired(t *testing.T) {
	for _, opts := range [][]a2e.Option{nil, {a2e.WithBaseURL("")}, {a2e.WithBaseURL("localhost:8080")}, {a2e.WithBaseURL("ftp://host")}} {
		c := a2e.NewClient(testKey, append(opts, a2e.WithMaxRetries(0))...)
		_, err := c.Account.Retrieve(context.Background())
		var e *a2e.Error
		if err == nil || errors.As(err, &e) || strings.Contains(err.Error(), testKey) {
			t.Errorf("%d options: err %v, want a configuration error that is not an *a2e.Error", len(opts), err)
		}
		if _, err := c.Listings.Create(context.Background(), a2e.CreateListingParams{AmazonURL: amazonURL}); err == nil {
			t.Errorf("%d options: Create without a usable base URL succeeded", len(opts))
		}
	}
	_, err := a2e.NewClient(testKey).Listings.List(context.Background(), a2e.ListListingsParams{})
	if !errors.Is(err, a2e.ErrNoBaseURL) {
		t.Errorf("err %v, want ErrNoBaseURL", err)
	}
}

func TestTheReadBackWaitsAsAFirstRetry(t *testing.T) {
	// Without Retry-After the wait before the read-back is backoff(0), at most
	// 0.5 s, whatever WithMaxRetries; repeated, as the backoff is random.
	for range 12 {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
			if r.Method == "POST" {
				reply(w, 503, commitUnknown)
				return
			}
			reply(w, 200, `{"data":[],"nextCursor":null}`)
		})
		_, err := s.client(a2e.WithMaxRetries(3)).Listings.Create(context.Background(), a2e.CreateListingParams{AmazonURL: amazonURL})
		attempts, waits := s.recorded()
		if err == nil || len(attempts) != 5 || len(waits) != 4 {
			t.Fatalf("err %v, %d attempts, waits %v; want 4 creates, one read-back", err, len(attempts), waits)
		}
		if waits[3] > 500*time.Millisecond {
			t.Fatalf("waits %v: the read-back waited more than a first retry's backoff", waits)
		}
	}
}

func TestUserAgentNamesTheSDKAndItsVersion(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) { reply(w, 200, `{"email":"a@example.com"}`) })
	if _, err := s.client().Account.Retrieve(context.Background()); err != nil {
		t.Fatal(err)
	}
	attempts, _ := s.recorded()
	if got := attempts[0].header.Get("User-Agent"); got != "a2e-sdk-go/"+a2e.Version || a2e.Version == "" {
		t.Errorf("User-Agent %q, want a2e-sdk-go/%s", got, a2e.Version)
	}
}

func TestAFractionalRetryAfterIsWaited(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			reply(w, 429, `{"code":"rate_limited","message":"slow","requestId":"r"}`, "Retry-After", "1.5")
			return
		}
		reply(w, 200, `{"email":"a@example.com"}`)
	})
	if _, err := s.client().Account.Retrieve(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, waits := s.recorded(); len(waits) != 1 || waits[0] != 1500*time.Millisecond {
		t.Errorf("waits %v, want [1.5s]", waits)
	}
}

func TestRateLimitHeadersOnResults(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		h := []string{"X-RateLimit-Limit", "20", "X-RateLimit-Remaining", fmt.Sprint(19 - n), "X-RateLimit-Reset", "1768471505"}
		switch r.URL.Path {
		case "/v1/account":
			reply(w, 200, `{"email":"a@example.com"}`, h...)
		case "/v1/listings/L1":
			reply(w, 200, listingJSON, h...)
		default:
			reply(w, 200, `{"data":[`+listingJSON+`],"nextCursor":null}`, h...)
		}
	})
	c, ctx := s.client(), context.Background()
	a, err := c.Account.Retrieve(ctx)
	if err != nil || a.RateLimit == nil || a.RateLimit.Remaining != 19 || a.RateLimit.Limit != 20 {
		t.Fatalf("account %+v, err %v", a, err)
	}
	l, err := c.Listings.Retrieve(ctx, "L1")
	if err != nil || l.RateLimit == nil || l.RateLimit.Remaining != 18 {
		t.Fatalf("listing %+v, err %v", l, err)
	}
	p, err := c.Listings.List(ctx, a2e.ListListingsParams{})
	if err != nil || p.RateLimit == nil || p.RateLimit.Remaining != 17 || p.RateLimit.Reset.Unix() != 1768471505 {
		t.Fatalf("page %+v, err %v", p, err)
	}
	found, err := c.Listings.FindByIdempotencyKey(ctx, "k")
	if err != nil || found.RateLimit == nil || found.RateLimit.Remaining != 16 {
		t.Fatalf("found %+v, err %v", found, err)
	}
	// No headers (the rate-limit store unreachable): nil, not zeros.
	bare := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) { reply(w, 200, `{"email":"a@example.com"}`) })
	if a, err := bare.client().Account.Retrieve(ctx); err != nil || a.RateLimit != nil {
		t.Fatalf("account %+v, err %v; want no RateLimit", a, err)
	}
}

func TestListAllFollowsTheCursor(t *testing.T) {
	pages := map[string]string{
		"":   `{"data":[{"id":"L5"},{"id":"L4"}],"nextCursor":"c2"}`,
		"c2": `{"data":[{"id":"L3"},{"id":"L2"}],"nextCursor":"c3"}`,
		"c3": `{"data":[{"id":"L1"}],"nextCursor":null}`,
	}
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if r.URL.Query().Get("cursor") == "c3" && n == 2 {
			reply(w, 503, `{"code":"service_unavailable","message":"down","requestId":"r"}`, "Retry-After", "1")
			return
		}
		reply(w, 200, pages[r.URL.Query().Get("cursor")])
	})
	var ids []string
	it := s.client().Listings.ListAll(context.Background(), a2e.ListListingsParams{Limit: 2})
	for it.Next() {
		ids = append(ids, it.Listing().ID)
	}
	if it.Err() != nil || strings.Join(ids, ",") != "L5,L4,L3,L2,L1" || it.Next() {
		t.Fatalf("ids %v, err %v", ids, it.Err())
	}
	attempts, _ := s.recorded()
	var got []string
	for _, a := range attempts {
		got = append(got, a.query)
	}
	if strings.Join(got, " ") != "limit=2 cursor=c2&limit=2 cursor=c3&limit=2 cursor=c3&limit=2" {
		t.Errorf("queries %v: want each page once, the failed one retried", got)
	}
}

func TestListAllStopsOnAnError(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			reply(w, 200, `{"data":[{"id":"L2"}],"nextCursor":"c2"}`)
			return
		}
		reply(w, 401, `{"code":"api_key_invalid","message":"Invalid API key","requestId":"r"}`)
	})
	it := s.client().Listings.ListAll(context.Background(), a2e.ListListingsParams{})
	n := 0
	for it.Next() {
		n++
	}
	if n != 1 || !errors.Is(it.Err(), a2e.ErrAuthentication) || it.Listing() != nil {
		t.Fatalf("%d listings, err %v", n, it.Err())
	}
}
