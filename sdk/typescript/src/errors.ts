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
export class A2EError extends Error {
  /** The API's stable snake_case code, such as `"insufficient_credits"`; null without an API error body. */
  readonly code: string | null;
  /** The HTTP status; null when no answer came. */
  readonly status: number | null;
  /** The request's id (`requestId`, `X-Request-ID`), to quote to support; null when no answer came. */
  readonly requestId: string | null;
  /** The `Idempotency-Key` of the failed create, to keep with a pending operation; null for other calls. */
  readonly idempotencyKey: string | null;

  constructor(init: A2EErrorInit) {
    super(init.message, { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code ?? null;
    this.status = init.status ?? null;
    this.requestId = init.requestId ?? null;
    this.idempotencyKey = init.idempotencyKey ?? null;
  }
}

/** 401: the `X-API-Key` is missing, or is not an account's current key. */
export class AuthenticationError extends A2EError {}

/** 402: no credits left. */
export class InsufficientCreditsError extends A2EError {
  /** The balance: 0. */
  readonly creditsRemaining: number | null;

  constructor(init: A2EErrorInit) {
    super(init);
    this.creditsRemaining = init.creditsRemaining ?? null;
  }
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
export class SpendLimitReachedError extends A2EError {
  /** Which limit, its credits, what its period spent, and when it resets. */
  readonly spendLimit: SpendLimit | null;

  constructor(init: A2EErrorInit) {
    super(init);
    this.spendLimit = init.spendLimit ?? null;
  }
}

/** 403: a payment dispute is open, so spending is paused. */
export class SpendingFrozenError extends A2EError {}

/** 400, 405, 413, 415 and 422 other than a reused key: the request is wrong as sent. */
export class InvalidRequestError extends A2EError {
  /** The problem of each field (or header) named, when the API named them. */
  readonly fieldErrors: Record<string, string> | null;

  constructor(init: A2EErrorInit) {
    super(init);
    this.fieldErrors = init.fieldErrors ?? null;
  }
}

/** 404: no such listing of this account (or no such route). */
export class NotFoundError extends A2EError {}

/** 422 `idempotency_key_reused`: the key was already used with another request. */
export class IdempotencyError extends A2EError {}

/** 429: past the key's rate limit. Retried by the SDK; thrown once the retries run out. */
export class RateLimitError extends A2EError {
  /** Seconds to wait, from `Retry-After`. */
  readonly retryAfter: number | null;

  constructor(init: A2EErrorInit) {
    super(init);
    this.retryAfter = init.retryAfter ?? null;
  }
}

/**
 * 503: briefly unavailable. Retried by the SDK; thrown once the retries run out. With
 * `outcomeUnknown` the create may have been charged (and a read-back did not find it): keep
 * `idempotencyKey` and resolve it later with `listings.findByIdempotencyKey`.
 */
export class ServiceUnavailableError extends A2EError {
  /** Seconds to wait, from `Retry-After`. */
  readonly retryAfter: number | null;
  /** `commit_outcome_unknown`: the request may or may not have been applied. */
  readonly outcomeUnknown: boolean;

  constructor(init: A2EErrorInit) {
    super(init);
    this.retryAfter = init.retryAfter ?? null;
    this.outcomeUnknown = init.code === "commit_outcome_unknown";
  }
}

/** Any other HTTP error, such as 500 `internal_error`, or an answer that is not the API's JSON. */
export class APIError extends A2EError {}

/** No HTTP answer: the network failed or an attempt timed out (after the retries). */
export class ConnectionError extends A2EError {}

/**
 * `Retry-After` in seconds: whole or decimal seconds (digits, optionally a dot and digits: `1.5`) or
 * an HTTP date; null when absent, malformed (`1e3`, `.5`, `0x10`), 0, negative or in the past (then
 * the SDK waits a jittered backoff, as without the header). The vectors every SDK shares are
 * sdk/conformance/retry-after.json.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  const text = (value ?? "").trim();
  if (text === "") {
    return null;
  }
  if (/^[0-9]+(\.[0-9]+)?$/.test(text)) {
    const seconds = Number(text);
    return seconds > 0 ? seconds : null;
  }
  if (!/[a-z]/i.test(text)) {
    return null; // not a date either: "-3", "1,5"
  }
  const at = Date.parse(text);
  if (Number.isNaN(at)) {
    return null;
  }
  const left = Math.ceil((at - now) / 1000);
  return left > 0 ? left : null;
}

/** The error class of an answer with status (and code). */
function classOf(status: number, code: string | null): new (init: A2EErrorInit) => A2EError {
  switch (status) {
    case 400:
    case 405:
    case 413:
    case 415:
      return InvalidRequestError;
    case 401:
      return AuthenticationError;
    case 402:
      return code === "spend_limit_reached" ? SpendLimitReachedError : InsufficientCreditsError;
    case 403:
      return code === "spending_frozen" ? SpendingFrozenError : APIError;
    case 404:
      return NotFoundError;
    case 422:
      return code === "idempotency_key_reused" ? IdempotencyError : InvalidRequestError;
    case 429:
      return RateLimitError;
    case 503:
      return ServiceUnavailableError;
    default:
      return APIError;
  }
}

/**
 * The error that a failed answer stands for: its status, headers and body (parsed JSON, or undefined
 * when it was not JSON, such as a proxy's error page).
 */
export function errorOf(
  status: number,
  headers: { get(name: string): string | null },
  body: unknown,
  idempotencyKey: string | null,
): A2EError {
  const fields = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  const code = text(fields.code);
  const Class = classOf(status, code);
  return new Class({
    message: text(fields.message) ?? `The API answered HTTP ${status}`,
    code,
    status,
    requestId: text(fields.requestId) ?? headers.get("X-Request-ID"),
    idempotencyKey,
    retryAfter: parseRetryAfter(headers.get("Retry-After")),
    creditsRemaining: typeof fields.creditsRemaining === "number" ? fields.creditsRemaining : null,
    spendLimit:
      code === "spend_limit_reached"
        ? {
            period: text(fields.period) ?? "",
            limit: typeof fields.limit === "number" ? fields.limit : 0,
            spent: typeof fields.spent === "number" ? fields.spent : 0,
            resetsAt: text(fields.resetsAt) ?? "",
          }
        : null,
    fieldErrors: typeof fields.errors === "object" ? (fields.errors as Record<string, string> | null) : null,
  });
}

/**
 * `verifyWebhook` refused a delivery. `code` says why, in every SDK's words: `signature_mismatch`,
 * `timestamp_outside_tolerance`, `malformed_header` or `malformed_payload`; each has its subclass.
 * `status` and `requestId` are null. It never holds the secret.
 */
export class WebhookVerificationError extends A2EError {}

/** `signature_mismatch`: no `v1` of the header is the HMAC of this body and `t` with this secret. */
export class WebhookSignatureError extends WebhookVerificationError {}

/** `timestamp_outside_tolerance`: the signature matches, but `t` is further from now than the tolerance. */
export class WebhookTimestampError extends WebhookVerificationError {}

/** `malformed_header`: the `A2E-Signature` header is not `t=<unix seconds>,v1=<64 hex digits>[,v1=…]`. */
export class WebhookHeaderError extends WebhookVerificationError {}

/** `malformed_payload`: the signed body is not an event `{"id", "type", "createdAt", "data": {…}}`. */
export class WebhookPayloadError extends WebhookVerificationError {}
