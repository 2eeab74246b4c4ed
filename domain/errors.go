package domain

import (
	"errors"
	"fmt"
	"time"
)

// Code classifies a domain error, so that an adapter maps it once (for
// example to an HTTP status) without reading messages.
type Code string

// The error vocabulary of the domain.
const (
	CodeInvalid             Code = "invalid"              // the input breaks a rule
	CodeNotFound            Code = "not_found"            // the thing does not exist
	CodeConflict            Code = "conflict"             // the current state does not allow it
	CodeUnauthorized        Code = "unauthorized"         // the caller is not signed in
	CodeForbidden           Code = "forbidden"            // the caller may not do it
	CodeInsufficientCredits Code = "insufficient_credits" // the balance does not cover it
	CodeUnavailable         Code = "unavailable"          // a service it needs did not answer in time: retry later
	CodeRateLimited         Code = "rate_limited"         // too many too soon: retry after RetryAfter
	CodeSpendLimitReached   Code = "spend_limit_reached"  // a spend limit the seller set does not allow it (SpendLimitError)
)

// Error is a broken rule. Its Message is written for the user and safe to show.
type Error struct {
	Code    Code
	Message string
	// RetryAfter, when set, is how long the caller should wait before it
	// tries again (CodeUnavailable, CodeRateLimited).
	RetryAfter time.Duration
}

// RateLimited is a CodeRateLimited error: retry after retryAfter.
func RateLimited(retryAfter time.Duration, format string, args ...any) *Error {
	return &Error{Code: CodeRateLimited, Message: fmt.Sprintf(format, args...), RetryAfter: retryAfter}
}

// Unavailable is a CodeUnavailable error: retry after retryAfter.
func Unavailable(retryAfter time.Duration, format string, args ...any) *Error {
	return &Error{Code: CodeUnavailable, Message: fmt.Sprintf(format, args...), RetryAfter: retryAfter}
}

// RetryAfter is the RetryAfter of the first Error in err's chain, or 0.
func RetryAfter(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

// Error implements error.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Errorf returns an Error with code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first Error in err's chain, or "" when
// err holds none.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// ErrorMessage returns the message of the first Error in err's chain: "" for
// nil and "Internal error" for any other error, whose text may hold details
// that users must not see.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "Internal error"
}
