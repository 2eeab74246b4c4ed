package main

import (
	"errors"
	"net/http"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/staff"
)

// The error codes: every error body carries one in "code", a stable
// snake_case value that clients branch on (the message is for people and may
// change). docs/desktop-api.md and openapi.json list those any call can
// answer (errorCodes); a test keeps the three in step. The staff console's
// own codes (consoleErrorCodes) are answered only under /api/staff and
// /api/auth/mfa, to staff; docs/auth.md lists them, kept by another test.
const (
	CodeInvalidRequest       = "invalid_request"        // 400: a field, the JSON or a header is wrong
	CodeUnauthenticated      = "unauthenticated"        // 401 (/api): not signed in, or the session ended
	CodeAPIKeyMissing        = "api_key_missing"        // 401 (/v1): no X-API-Key header
	CodeAPIKeyInvalid        = "api_key_invalid"        // 401 (/v1): a key that does not work: unknown, revoked, expired, or rotated and past its grace
	CodeInsufficientCredits  = "insufficient_credits"   // 402: no credits left
	CodeSpendLimitReached    = "spend_limit_reached"    // 402 (/v1): a spend limit the seller set is reached; see resetsAt
	CodeForbidden            = "forbidden"              // 403: the caller may not do it
	CodeSpendingFrozen       = "spending_frozen"        // 403: a payment dispute is open, spending is paused
	CodeNotFound             = "not_found"              // 404: no such route or thing
	CodeMethodNotAllowed     = "method_not_allowed"     // 405: the path does not take this method (see Allow)
	CodeConflict             = "conflict"               // 409: the account's state does not allow it now
	CodeRequestTooLarge      = "request_too_large"      // 413: the body is over 64 KiB
	CodeUnsupportedMediaType = "unsupported_media_type" // 415: the body is not application/json
	CodeIdempotencyKeyReused = "idempotency_key_reused" // 422: the Idempotency-Key was used with another request
	CodeRateLimited          = "rate_limited"           // 429: too many requests; wait Retry-After seconds
	CodeInternalError        = "internal_error"         // 500: a fault on our side (logged with the request id)
	CodeServiceUnavailable   = "service_unavailable"    // 503: briefly unavailable, nothing was done; Retry-After
	CodeCommitOutcomeUnknown = "commit_outcome_unknown" // 503: it may or may not have been applied; Retry-After

	CodeStaffMFARequired = "staff_mfa_required" // 403 (/api/staff): this session has not passed the second factor
	CodeStaffOwnAccount  = "staff_own_account"  // 403 (/api/staff): staff may not change their own account
)

// consoleErrorCodes are the staff console's codes, for the documentation test.
var consoleErrorCodes = []string{CodeStaffMFARequired, CodeStaffOwnAccount}

// errorCodes is every code an answer can carry, for the documentation test.
var errorCodes = []string{
	CodeInvalidRequest, CodeUnauthenticated, CodeAPIKeyMissing, CodeAPIKeyInvalid, CodeInsufficientCredits,
	CodeForbidden, CodeSpendingFrozen, CodeNotFound, CodeMethodNotAllowed, CodeConflict, CodeRequestTooLarge,
	CodeUnsupportedMediaType, CodeIdempotencyKeyReused, CodeRateLimited, CodeInternalError,
	CodeServiceUnavailable, CodeCommitOutcomeUnknown, CodeSpendLimitReached,
}

// codeOfStatus is the code of an answer that names no more precise one.
func codeOfStatus(status int) string {
	switch status {
	case http.StatusBadRequest:
		return CodeInvalidRequest
	case http.StatusUnauthorized:
		return CodeUnauthenticated
	case http.StatusPaymentRequired:
		return CodeInsufficientCredits
	case http.StatusForbidden:
		return CodeForbidden
	case http.StatusNotFound:
		return CodeNotFound
	case http.StatusMethodNotAllowed:
		return CodeMethodNotAllowed
	case http.StatusConflict:
		return CodeConflict
	case http.StatusRequestEntityTooLarge:
		return CodeRequestTooLarge
	case http.StatusUnsupportedMediaType:
		return CodeUnsupportedMediaType
	case http.StatusTooManyRequests:
		return CodeRateLimited
	case http.StatusServiceUnavailable:
		return CodeServiceUnavailable
	default:
		if status >= 500 {
			return CodeInternalError
		}
		return CodeInvalidRequest
	}
}

// statusOfDomain is the HTTP status of a domain refusal.
func statusOfDomain(code domain.Code) int {
	switch code {
	case domain.CodeNotFound:
		return http.StatusNotFound
	case domain.CodeConflict:
		return http.StatusConflict
	case domain.CodeUnauthorized:
		return http.StatusUnauthorized
	case domain.CodeForbidden:
		return http.StatusForbidden
	case domain.CodeInsufficientCredits, domain.CodeSpendLimitReached:
		return http.StatusPaymentRequired
	case domain.CodeUnavailable:
		return http.StatusServiceUnavailable
	case domain.CodeRateLimited:
		return http.StatusTooManyRequests
	default: // domain.CodeInvalid and any code added later
		return http.StatusBadRequest
	}
}

// codeOfDomain is the public code of err, a domain refusal with code.
func codeOfDomain(err error, code domain.Code) string {
	if errors.Is(err, domain.ErrSpendingFrozen) {
		return CodeSpendingFrozen
	}
	if errors.Is(err, domain.ErrAPIKeyNotCurrent) {
		return CodeAPIKeyInvalid
	}
	if errors.Is(err, staff.ErrOwnAccount) {
		return CodeStaffOwnAccount
	}
	if code == domain.CodeInvalid {
		return CodeInvalidRequest
	}
	if code == domain.CodeSpendLimitReached {
		return CodeSpendLimitReached
	}
	return codeOfStatus(statusOfDomain(code))
}
