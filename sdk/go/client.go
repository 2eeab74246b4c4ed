// Package a2e is the Go client of the A2E desktop API (/v1): listing
// requests, their read-back, VeRO checks and the account's credits.
//
// A Client retries network failures, 429 and 503 answers (and 500, 502 and
// 504 ones, as every call it makes is a read or carries an Idempotency-Key)
// with the same Idempotency-Key and the same body bytes, so a create is never
// charged twice. Every error is an *Error that matches one of the sentinels
// (ErrAuthentication, ErrInsufficientCredits, ...) with errors.Is.
//
//	c := a2e.NewClient(os.Getenv("A2E_API_KEY"), a2e.WithBaseURL("https://api.example.com"))
//	l, err := c.Listings.Create(ctx, a2e.CreateListingParams{AmazonURL: "https://www.amazon.com/dp/B08N5WRWNW"})
package a2e

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ErrNoBaseURL is the error of every call of a client made without
// WithBaseURL: there is no default address, so a forgotten one never sends
// the API key in clear text to some host. It is not an *Error (nothing was
// sent), like the error of a WithBaseURL that is not an http(s) address.
var ErrNoBaseURL = errors.New("a2e: no base URL: pass a2e.WithBaseURL, such as https://api.example.com")

// Defaults of the retry policy and the per-attempt timeout.
const (
	DefaultMaxRetries = 3
	DefaultTimeout    = 30 * time.Second
)

// Client calls the API with one API key. It is safe for concurrent use.
// Its string forms never show the API key.
type Client struct {
	// Listings creates, reads back and lists listing requests.
	Listings *ListingsService
	// Account reads the account's credits and standing.
	Account *AccountService
	// VeroChecks checks brands against the VeRO protected-brand list.
	VeroChecks *VeroChecksService

	// apiKey answers the API key: a func, so that no formatting of the
	// struct (fmt's %v of a Client held in another value, reflection) shows it.
	apiKey     func() string
	baseURL    string
	configErr  error
	httpClient *http.Client
	maxRetries int
	timeout    time.Duration
	sleep      func(ctx context.Context, d time.Duration) error
}

// Option configures a Client.
type Option func(*Client)

// WithBaseURL sets the API's address, such as "https://api.example.com"
// (required: there is no default); a trailing slash is ignored.
func WithBaseURL(u string) Option {
	return func(c *Client) { c.baseURL = strings.TrimRight(u, "/") }
}

// WithHTTPClient sets the HTTP client the requests go through. The default
// one follows no redirects, so the API key is never sent to another address.
func WithHTTPClient(h *http.Client) Option {
	return func(c *Client) { c.httpClient = h }
}

// WithMaxRetries sets how many times a failed request is retried (default
// DefaultMaxRetries); 0 sends every request once.
func WithMaxRetries(n int) Option {
	return func(c *Client) { c.maxRetries = max(n, 0) }
}

// WithTimeout bounds each attempt, from sending the request to reading the
// whole answer (default DefaultTimeout). The context given to a call bounds
// the call as a whole, retries and waits included.
func WithTimeout(d time.Duration) Option {
	return func(c *Client) { c.timeout = d }
}

// NewClient is a client that authenticates with apiKey.
func NewClient(apiKey string, opts ...Option) *Client {
	c := &Client{
		apiKey: func() string { return apiKey },
		httpClient: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}},
		maxRetries: DefaultMaxRetries,
		timeout:    DefaultTimeout,
		sleep:      sleep,
	}
	for _, opt := range opts {
		opt(c)
	}
	switch u, err := url.Parse(c.baseURL); {
	case c.baseURL == "":
		c.configErr = ErrNoBaseURL
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		c.configErr = errors.New("a2e: the base URL must be an http:// or https:// address, such as https://api.example.com")
	}
	c.Listings = &ListingsService{c: c}
	c.Account = &AccountService{c: c}
	c.VeroChecks = &VeroChecksService{c: c}
	return c
}

// String describes the client without its API key. Its receiver is a value,
// so that a Client formatted by value (fmt.Sprint(*c)) is described too.
func (c Client) String() string { return "a2e.Client{baseURL: " + c.baseURL + "}" }

// GoString is String, so that %#v does not show the API key either.
func (c Client) GoString() string { return c.String() }
