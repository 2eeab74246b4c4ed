/** What an {@link A2EError} is made of; what is not given is null. */
export interface A2EErrorInit {
    message: string;
    code?: string | null;
    status?: number | null;
    requestId?: string | null;
    idempotencyKey?: string | null;
    /** Seconds, from `Retry-After`. */
    retryAfter?: number | null;
    creditsRemaining?: number | null;
    spendLimit?: SpendLimit | null;
    fieldErrors?: Record<string, string> | null;
    cause?: unknown;
}
/**
 * Every error the SDK throws. Branch on the subclass (`instanceof`) or on `code`; `message` is
 * English for people and may change.
 */
export declare class A2EError extends Error {
    /** The API's stable snake_case code, such as `"insufficient_credits"`; null without an API error body. */
    readonly code: string | null;
    /** The HTTP status; null when no answer came. */
    readonly status: number | null;
    /** The request's id (`requestId`, `X-Request-ID`), to quote to support; null when no answer came. */
    readonly requestId: string | null;
    /** The `Idempotency-Key` of the failed create, to keep with a pending operation; null for other calls. */
    readonly idempotencyKey: string | null;
    constructor(init: A2EErrorInit);
}
/** 401: the `X-API-Key` is missing, or is not an account's current key. */
export declare class AuthenticationError extends A2EError {
}
/** 402: no credits left. */
export declare class InsufficientCreditsError extends A2EError {
    /** The balance: 0. */
    readonly creditsRemaining: number | null;
    constructor(init: A2EErrorInit);
}
/** The spend limit a call was refused by, as the 402 `spend_limit_reached` body gives it. */
export interface SpendLimit {
    /** `"daily"` (credits per UTC day) or `"monthly"` (per billing month). */
    period: string;
    /** The limit, in credits. */
    limit: number;
    /** Credits spent in the limit's current period. */
    spent: number;
    /** When the period ends and spending may resume (RFC 3339, UTC). */
    resetsAt: string;
}
/** 402 `spend_limit_reached`: a daily or monthly spend limit the seller set is reached. */
export declare class SpendLimitReachedError extends A2EError {
    /** Which limit, its credits, what its period spent, and when it resets. */
    readonly spendLimit: SpendLimit | null;
    constructor(init: A2EErrorInit);
}
/** 403: a payment dispute is open, so spending is paused. */
export declare class SpendingFrozenError extends A2EError {
}
/** 400, 405, 413, 415 and 422 other than a reused key: the request is wrong as sent. */
export declare class InvalidRequestError extends A2EError {
    /** The problem of each field (or header) named, when the API named them. */
    readonly fieldErrors: Record<string, string> | null;
    constructor(init: A2EErrorInit);
}
/** 404: no such listing of this account (or no such route). */
export declare class NotFoundError extends A2EError {
}
/** 422 `idempotency_key_reused`: the key was already used with another request. */
export declare class IdempotencyError extends A2EError {
}
/** 429: past the key's rate limit. Retried by the SDK; thrown once the retries run out. */
export declare class RateLimitError extends A2EError {
    /** Seconds to wait, from `Retry-After`. */
    readonly retryAfter: number | null;
    constructor(init: A2EErrorInit);
}
/**
 * 503: briefly unavailable. Retried by the SDK; thrown once the retries run out. With
 * `outcomeUnknown` the create may have been charged (and a read-back did not find it): keep
 * `idempotencyKey` and resolve it later with `listings.findByIdempotencyKey`.
 */
export declare class ServiceUnavailableError extends A2EError {
    /** Seconds to wait, from `Retry-After`. */
    readonly retryAfter: number | null;
    /** `commit_outcome_unknown`: the request may or may not have been applied. */
    readonly outcomeUnknown: boolean;
    constructor(init: A2EErrorInit);
}
/** Any other HTTP error, such as 500 `internal_error`, or an answer that is not the API's JSON. */
export declare class APIError extends A2EError {
}
/** No HTTP answer: the network failed or an attempt timed out (after the retries). */
export declare class ConnectionError extends A2EError {
}
/**
 * `Retry-After` in seconds: whole or decimal seconds (digits, optionally a dot and digits: `1.5`) or
 * an HTTP date; null when absent, malformed (`1e3`, `.5`, `0x10`), 0, negative or in the past (then
 * the SDK waits a jittered backoff, as without the header). The vectors every SDK shares are
 * sdk/conformance/retry-after.json.
 */
export declare function parseRetryAfter(value: string | null, now?: number): number | null;
/**
 * The error that a failed answer stands for: its status, headers and body (parsed JSON, or undefined
 * when it was not JSON, such as a proxy's error page).
 */
export declare function errorOf(status: number, headers: {
    get(name: string): string | null;
}, body: unknown, idempotencyKey: string | null): A2EError;
/**
 * `verifyWebhook` refused a delivery. `code` says why, in every SDK's words: `signature_mismatch`,
 * `timestamp_outside_tolerance`, `malformed_header` or `malformed_payload`; each has its subclass.
 * `status` and `requestId` are null. It never holds the secret.
 */
export declare class WebhookVerificationError extends A2EError {
}
/** `signature_mismatch`: no `v1` of the header is the HMAC of this body and `t` with this secret. */
export declare class WebhookSignatureError extends WebhookVerificationError {
}
/** `timestamp_outside_tolerance`: the signature matches, but `t` is further from now than the tolerance. */
export declare class WebhookTimestampError extends WebhookVerificationError {
}
/** `malformed_header`: the `A2E-Signature` header is not `t=<unix seconds>,v1=<64 hex digits>[,v1=…]`. */
export declare class WebhookHeaderError extends WebhookVerificationError {
}
/** `malformed_payload`: the signed body is not an event `{"id", "type", "createdAt", "data": {…}}`. */
export declare class WebhookPayloadError extends WebhookVerificationError {
}
