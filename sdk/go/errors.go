package a2e

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/a2e-automation/app/sdk/go/internal/api"
)

// The kinds of error, for errors.Is: every *Error the client returns matches
// at most one of them (none for an HTTP answer of no known kind).
var (
	// ErrAuthentication: 401, no API key or not the account's current one.
	ErrAuthentication = errors.New("a2e: authentication failed")
	// ErrInsufficientCredits: 402, no credits left.
	ErrInsufficientCredits = errors.New("a2e: insufficient credits")
	// ErrSpendLimitReached: 402 spend_limit_reached, a daily or monthly
	// spend limit the seller set is reached; see Error.SpendLimit.
	ErrSpendLimitReached = errors.New("a2e: spend limit reached")
	// ErrSpendingFrozen: 403, a payment dispute is open and spending is paused.
	ErrSpendingFrozen = errors.New("a2e: spending frozen")
	// ErrNotFound: 404, no such listing of this account (or no such route).
	ErrNotFound = errors.New("a2e: not found")
	// ErrInvalidRequest: 400, 405, 413, 415, or a 422 other than a reused
	// key: the request is wrong; see Error.Fields.
	ErrInvalidRequest = errors.New("a2e: invalid request")
	// ErrIdempotencyKeyReused: 422, the Idempotency-Key was used with another request.
	ErrIdempotencyKeyReused = errors.New("a2e: idempotency key reused")
	// ErrRateLimited: 429, past the key's rate limit; see Error.RetryAfter.
	ErrRateLimited = errors.New("a2e: rate limited")
	// ErrUnavailable: 503, briefly unavailable; see Error.OutcomeUnknown.
	ErrUnavailable = errors.New("a2e: service unavailable")
	// ErrInternal: 500 or another 5xx, a fault on the server's side.
	ErrInternal = errors.New("a2e: internal server error")
	// ErrConnection: no HTTP answer (the network failed, an attempt timed
	// out or the context ended); the cause is wrapped.
	ErrConnection = errors.New("a2e: connection failed")
)

// Error codes the client acts on (the API's "code" field).
// They are the document's ErrorCode values (internal/api), so a code the
// document drops no longer compiles.
const (
	codeSpendingFrozen       = string(api.ErrorCodeSpendingFrozen)
	codeSpendLimitReached    = string(api.ErrorCodeSpendLimitReached)
	codeIdempotencyKeyReused = string(api.ErrorCodeIdempotencyKeyReused)
	codeCommitOutcomeUnknown = string(api.ErrorCodeCommitOutcomeUnknown)
)

// Error is every failure of a call: an HTTP answer that is not a success
// (Status set), or no answer at all (Status 0, matching ErrConnection and
// wrapping the cause). It never holds the API key.
type Error struct {
	// Code is the API's stable snake_case code, such as "insufficient_credits";
	// empty when there was no answer or it carried none.
	Code string
	// Status is the HTTP status; 0 when there was no answer.
	Status int
	// RequestID is the server's id of the request, to quote to support.
	RequestID string
	// Message says what went wrong, in English, for people.
	Message string
	// IdempotencyKey is the key a create sent (on every attempt): keep it to
	// resolve the operation later with ListingsService.FindByIdempotencyKey.
	IdempotencyKey string
	// RetryAfter is the wait the server asked for (429, 503); 0 when none.
	RetryAfter time.Duration
	// OutcomeUnknown: the server could not tell whether the create was
	// applied (commit_outcome_unknown), and neither retries nor the read-back
	// by IdempotencyKey settled it.
	OutcomeUnknown bool
	// CreditsRemaining is the balance on a 402 (0); nil otherwise.
	CreditsRemaining *int64
	// Fields is the problem of each field of a 400, by field name.
	Fields map[string]string
	// SpendLimit is the limit reached, on a 402 spend_limit_reached; nil
	// otherwise.
	SpendLimit *SpendLimit

	cause error
}

// SpendLimit is the spend limit a call was refused by: which one
// ("daily" or "monthly"), its credits, what its period spent, and when the
// period ends.
type SpendLimit struct {
	Period   string    `json:"period"`
	Limit    int64     `json:"limit"`
	Spent    int64     `json:"spent"`
	ResetsAt time.Time `json:"resetsAt"`
}

// Error describes the failure with its status, code, message and request id.
func (e *Error) Error() string {
	if e.Status == 0 {
		return "a2e: connection failed: " + e.Message
	}
	s := fmt.Sprintf("a2e: %d", e.Status)
	if e.Code != "" {
		s += " " + e.Code
	}
	s += ": " + e.Message
	if e.RequestID != "" {
		s += " (request " + e.RequestID + ")"
	}
	return s
}

// Is reports whether target is the sentinel of e's kind.
func (e *Error) Is(target error) bool {
	kind := e.kind()
	return kind != nil && target == kind
}

// Unwrap is the cause of a connection failure, such as context.DeadlineExceeded.
func (e *Error) Unwrap() error { return e.cause }

// kind is the sentinel e matches, from its status and code (as the table of
// sdk/README.md), or nil.
func (e *Error) kind() error {
	switch {
	case e.Status == 0:
		return ErrConnection
	case e.Status == http.StatusUnauthorized:
		return ErrAuthentication
	case e.Status == http.StatusPaymentRequired && e.Code == codeSpendLimitReached:
		return ErrSpendLimitReached
	case e.Status == http.StatusPaymentRequired:
		return ErrInsufficientCredits
	case e.Code == codeSpendingFrozen:
		return ErrSpendingFrozen
	case e.Status == http.StatusNotFound:
		return ErrNotFound
	case e.Status == http.StatusBadRequest, e.Status == http.StatusMethodNotAllowed,
		e.Status == http.StatusRequestEntityTooLarge, e.Status == http.StatusUnsupportedMediaType:
		return ErrInvalidRequest
	case e.Code == codeIdempotencyKeyReused:
		return ErrIdempotencyKeyReused
	case e.Status == http.StatusUnprocessableEntity:
		return ErrInvalidRequest // a 422 that is not a reused key: the request is wrong as sent
	case e.Status == http.StatusTooManyRequests:
		return ErrRateLimited
	case e.Status == http.StatusServiceUnavailable:
		return ErrUnavailable
	case e.Status >= 500:
		return ErrInternal
	}
	return nil
}

// connectionError is the failure of an attempt that got no answer.
func connectionError(cause error) *Error {
	return &Error{Message: cause.Error(), cause: cause}
}
