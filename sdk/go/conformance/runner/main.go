// Command runner performs one SDK call for the shared conformance cases
// (sdk/conformance/README.md): it reads the operation as one JSON object
// on standard input, calls the API at $A2E_BASE_URL with $A2E_API_KEY
// through the SDK, and prints the outcome as one JSON line. It exits 0
// whenever it printed a line, and non-zero only if it could not run.
//
//	echo '{"op": "account"}' | A2E_BASE_URL=http://127.0.0.1:8080 A2E_API_KEY=... go run ./conformance/runner
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	a2e "github.com/a2e-automation/app/sdk/go"
)

// operation is the call to make.
type operation struct {
	Op             string `json:"op"` // create, retrieve, list, listAll, findByIdempotencyKey, account or veroCheck
	AmazonURL      string `json:"amazonUrl"`
	Brand          string `json:"brand"`
	IdempotencyKey string `json:"idempotencyKey"`
	ID             string `json:"id"`
	Limit          int    `json:"limit"`
	Cursor         string `json:"cursor"`
	MaxRetries     *int   `json:"maxRetries"`
}

// success is the line of a call that succeeded.
type success struct {
	OK             bool           `json:"ok"`
	Result         any            `json:"result"`
	IdempotencyKey string         `json:"idempotencyKey,omitempty"` // create's and veroCheck's
	RateLimit      *rateLimitLine `json:"rateLimit,omitempty"`
}

// rateLimitLine is an *a2e.RateLimit in the protocol's terms.
type rateLimitLine struct {
	Limit     int   `json:"limit"`
	Remaining int   `json:"remaining"`
	Reset     int64 `json:"reset"` // Unix seconds
}

func rateLimitLineOf(r *a2e.RateLimit) *rateLimitLine {
	if r == nil {
		return nil
	}
	return &rateLimitLine{Limit: r.Limit, Remaining: r.Remaining, Reset: r.Reset.Unix()}
}

// failure is the line of a call that failed.
type failure struct {
	OK    bool      `json:"ok"`
	Error errorLine `json:"error"`
}

// errorLine is an *a2e.Error in the protocol's terms; what it lacks is null.
type errorLine struct {
	Class            string          `json:"class"`
	Code             *string         `json:"code"`
	Status           *int            `json:"status"`
	RequestID        *string         `json:"requestId"`
	Message          string          `json:"message"`
	IdempotencyKey   *string         `json:"idempotencyKey"`
	RetryAfter       *float64        `json:"retryAfter"` // seconds
	OutcomeUnknown   bool            `json:"outcomeUnknown"`
	CreditsRemaining *int64          `json:"creditsRemaining"`
	SpendLimit       *spendLimitLine `json:"spendLimit"`
}

// spendLimitLine is an a2e.SpendLimit with resetsAt as the API wrote it.
type spendLimitLine struct {
	Period   string `json:"period"`
	Limit    int64  `json:"limit"`
	Spent    int64  `json:"spent"`
	ResetsAt string `json:"resetsAt"`
}

// classes names the protocol's error class of each sentinel; an HTTP
// error of none of them is an "APIError".
var classes = []struct {
	kind error
	name string
}{
	{a2e.ErrAuthentication, "AuthenticationError"},
	{a2e.ErrInsufficientCredits, "InsufficientCreditsError"},
	{a2e.ErrSpendLimitReached, "SpendLimitReachedError"},
	{a2e.ErrSpendingFrozen, "SpendingFrozenError"},
	{a2e.ErrRateLimited, "RateLimitError"},
	{a2e.ErrInvalidRequest, "InvalidRequestError"},
	{a2e.ErrNotFound, "NotFoundError"},
	{a2e.ErrIdempotencyKeyReused, "IdempotencyError"},
	{a2e.ErrUnavailable, "ServiceUnavailableError"},
	{a2e.ErrConnection, "ConnectionError"},
}

func main() {
	var op operation
	if err := json.NewDecoder(os.Stdin).Decode(&op); err != nil {
		fmt.Fprintln(os.Stderr, "runner: reading the operation:", err)
		os.Exit(2)
	}
	opts := []a2e.Option{a2e.WithBaseURL(os.Getenv("A2E_BASE_URL"))}
	if op.MaxRetries != nil {
		opts = append(opts, a2e.WithMaxRetries(*op.MaxRetries))
	}
	c := a2e.NewClient(os.Getenv("A2E_API_KEY"), opts...)

	line, err := run(context.Background(), c, op)
	if err != nil {
		fmt.Fprintln(os.Stderr, "runner:", err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(line); err != nil {
		fmt.Fprintln(os.Stderr, "runner: writing the outcome:", err)
		os.Exit(1)
	}
}

// run makes the call and answers the line to print; an error only when the
// call could not be made or failed other than with an *a2e.Error.
func run(ctx context.Context, c *a2e.Client, op operation) (any, error) {
	var (
		result any
		key    string
		rl     *a2e.RateLimit
		err    error
	)
	switch op.Op {
	case "create":
		var l *a2e.Listing
		l, err = c.Listings.Create(ctx, a2e.CreateListingParams{AmazonURL: op.AmazonURL, IdempotencyKey: op.IdempotencyKey})
		if err == nil {
			result, key, rl = l, l.IdempotencyKey, l.RateLimit
		}
	case "veroCheck":
		var v *a2e.VeroCheck
		v, err = c.VeroChecks.Create(ctx, a2e.CreateVeroCheckParams{Brand: op.Brand, IdempotencyKey: op.IdempotencyKey})
		if err == nil {
			result, key, rl = v, v.IdempotencyKey, v.RateLimit
		}
	case "retrieve":
		var l *a2e.Listing
		l, err = c.Listings.Retrieve(ctx, op.ID)
		if err == nil {
			result, rl = l, l.RateLimit
		}
	case "list":
		var p *a2e.ListingPage
		p, err = c.Listings.List(ctx, a2e.ListListingsParams{Limit: op.Limit, Cursor: op.Cursor, IdempotencyKey: op.IdempotencyKey})
		if err == nil {
			result, rl = map[string]any{"data": p.Data, "nextCursor": nonZero(p.NextCursor)}, p.RateLimit
		}
	case "listAll":
		data := []a2e.Listing{}
		it := c.Listings.ListAll(ctx, a2e.ListListingsParams{Limit: op.Limit})
		for it.Next() {
			data = append(data, *it.Listing())
		}
		if err = it.Err(); err == nil {
			result = map[string]any{"data": data}
		}
	case "findByIdempotencyKey":
		var l *a2e.Listing
		l, err = c.Listings.FindByIdempotencyKey(ctx, op.IdempotencyKey)
		if l != nil {
			result, rl = l, l.RateLimit
		}
	case "account":
		var a *a2e.Account
		a, err = c.Account.Retrieve(ctx)
		if err == nil {
			result, rl = a, a.RateLimit
		}
	default:
		return nil, fmt.Errorf("unknown op %q", op.Op)
	}
	if err == nil {
		return success{OK: true, Result: result, IdempotencyKey: key, RateLimit: rateLimitLineOf(rl)}, nil
	}
	var e *a2e.Error
	if !errors.As(err, &e) {
		return nil, err
	}
	return failure{Error: errorLineOf(e)}, nil
}

func errorLineOf(e *a2e.Error) errorLine {
	line := errorLine{Class: "APIError", Code: nonZero(e.Code), Status: nonZero(e.Status),
		RequestID: nonZero(e.RequestID), Message: e.Message, IdempotencyKey: nonZero(e.IdempotencyKey),
		OutcomeUnknown: e.OutcomeUnknown, CreditsRemaining: e.CreditsRemaining}
	for _, c := range classes {
		if errors.Is(e, c.kind) {
			line.Class = c.name
			break
		}
	}
	if sl := e.SpendLimit; sl != nil {
		line.SpendLimit = &spendLimitLine{Period: sl.Period, Limit: sl.Limit, Spent: sl.Spent, ResetsAt: sl.ResetsAt.UTC().Format(time.RFC3339)}
	}
	if e.RetryAfter > 0 {
		s := e.RetryAfter.Seconds()
		line.RetryAfter = &s
	}
	return line
}

// nonZero is a pointer to v, or nil (JSON null) when v is its type's zero.
func nonZero[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}
