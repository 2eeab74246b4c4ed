package a2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"math"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Version is the SDK's version, sent in the User-Agent header as
// "a2e-sdk-go/" + Version.
const Version = "0.1.0"

// userAgent is the User-Agent of every request.
const userAgent = "a2e-sdk-go/" + Version

// The waits between attempts: Retry-After up to maxRetryAfter, else
// exponential backoff from backoffBase up to backoffCap, with full jitter.
const (
	maxRetryAfter = 20 * time.Second
	backoffBase   = 500 * time.Millisecond
	backoffCap    = 8 * time.Second
)

// maxAnswer bounds the body of an answer read into memory.
const maxAnswer = 8 << 20

// request is one API call, sent identically on every attempt.
type request struct {
	method         string
	path           string
	query          url.Values
	body           []byte // JSON, serialised once
	idempotencyKey string
}

// answer is the HTTP answer to one attempt.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// send performs r, retrying up to retries times, decodes a successful
// answer into out (a wire model of internal/api) and returns the answer's
// rate limit. A failure is an *Error carrying r's Idempotency-Key.
func (c *Client) send(ctx context.Context, r request, out any, retries int) (*RateLimit, error) {
	if c.configErr != nil {
		return nil, c.configErr
	}
	limit, err := c.retry(ctx, r, out, retries)
	if err != nil {
		err.IdempotencyKey = r.idempotencyKey
		return nil, err
	}
	return limit, nil
}

// retry is send's loop: the rate limit once an answer was decoded into out,
// else the last attempt's failure.
func (c *Client) retry(ctx context.Context, r request, out any, retries int) (*RateLimit, *Error) {
	for attempt := 0; ; attempt++ {
		a, err := c.attempt(ctx, r)
		if err == nil && a.status >= 200 && a.status < 300 {
			if jerr := json.Unmarshal(a.body, out); jerr != nil {
				return nil, &Error{Status: a.status, RequestID: a.header.Get("X-Request-ID"),
					Message: "the answer is not the expected JSON: " + jerr.Error()}
			}
			return rateLimitOf(a.header), nil
		}
		if err == nil {
			err = errorOf(a)
		}
		if attempt == retries || !retryable(r, err) || !c.wait(ctx, attempt, err) {
			return nil, err
		}
	}
}

// wait pauses after the attempt-th failed attempt (from 0), which failed
// with err: the Retry-After it carries, capped, else a jittered backoff.
// It reports false, at once, when the context ends before the wait would.
func (c *Client) wait(ctx context.Context, attempt int, err *Error) bool {
	d := backoff(attempt)
	if err.RetryAfter > 0 {
		d = min(err.RetryAfter, maxRetryAfter)
	}
	if deadline, ok := ctx.Deadline(); (ok && time.Until(deadline) < d) || ctx.Err() != nil {
		return false
	}
	return c.sleep(ctx, d) == nil
}

// attempt sends r once, within the client's per-attempt timeout, and reads
// the whole answer; no answer is a connection *Error.
func (c *Client) attempt(ctx context.Context, r request) (answer, *Error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	u := c.baseURL + r.path
	if len(r.query) > 0 {
		u += "?" + r.query.Encode()
	}
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u, body)
	if err != nil {
		return answer{}, connectionError(err)
	}
	req.Header.Set("X-API-Key", c.apiKey())
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", userAgent)
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.idempotencyKey != "" {
		req.Header.Set("Idempotency-Key", r.idempotencyKey)
	}
	res, err := c.httpClient.Do(req)
	if err != nil {
		return answer{}, connectionError(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer))
	if err != nil {
		return answer{}, connectionError(fmt.Errorf("reading the answer to %s %s: %w", r.method, r.path, err))
	}
	return answer{status: res.StatusCode, header: res.Header, body: b}, nil
}

// errorOf is the *Error of an unsuccessful answer, from its JSON body
// where it has one and from its headers.
func errorOf(a answer) *Error {
	var body struct {
		Code             string            `json:"code"`
		Message          string            `json:"message"`
		RequestID        string            `json:"requestId"`
		Errors           map[string]string `json:"errors"`
		CreditsRemaining *int64            `json:"creditsRemaining"`
		SpendLimit
	}
	_ = json.Unmarshal(a.body, &body) // a proxy's answer may not be JSON: the status says enough
	e := &Error{Code: body.Code, Status: a.status, RequestID: body.RequestID, Message: body.Message,
		RetryAfter: retryAfter(a.header.Get("Retry-After")), OutcomeUnknown: body.Code == codeCommitOutcomeUnknown,
		CreditsRemaining: body.CreditsRemaining, Fields: body.Errors}
	if body.Code == codeSpendLimitReached {
		sl := body.SpendLimit
		e.SpendLimit = &sl
	}
	if e.RequestID == "" {
		e.RequestID = a.header.Get("X-Request-ID")
	}
	if e.Message == "" {
		e.Message = http.StatusText(a.status)
	}
	return e
}

// retryable reports whether err may be retried: no answer, 429 or 503; and
// 500, 502 or 504 for a read or a request with an Idempotency-Key.
func retryable(r request, err *Error) bool {
	switch err.Status {
	case 0, http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return true
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
		return r.method == http.MethodGet || r.idempotencyKey != ""
	}
	return false
}

// decimalSeconds is a Retry-After in seconds: digits, optionally a dot and
// digits (sdk/conformance/retry-after.json).
var decimalSeconds = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// retryAfter reads a Retry-After header, whole or decimal seconds or an
// HTTP date; 0 when absent, unreadable, 0, negative or past (the wait is
// then the backoff). Seconds beyond what a Duration holds are clamped, not
// overflowed.
func retryAfter(h string) time.Duration {
	h = strings.TrimSpace(h)
	if decimalSeconds.MatchString(h) {
		s, err := strconv.ParseFloat(h, 64)
		if err != nil || s >= float64(math.MaxInt64)/float64(time.Second) {
			return math.MaxInt64 // only a range error: too many digits
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}

// backoff is the wait after the attempt-th failed attempt (from 0) when the
// server named none: uniformly random up to backoffBase·2^attempt, at most
// backoffCap.
func backoff(attempt int) time.Duration {
	ceiling := backoffCap
	if attempt < 5 { // backoffBase<<4 already reaches backoffCap
		ceiling = min(backoffBase<<attempt, backoffCap)
	}
	return time.Duration(mrand.Int64N(int64(ceiling) + 1))
}

// sleep waits d or until ctx ends, whichever is first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// newIdempotencyKey is a random UUID (version 4).
func newIdempotencyKey() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Errorf("a2e: no randomness for an Idempotency-Key: %w", err))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
