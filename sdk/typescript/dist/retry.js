import { ConnectionError, RateLimitError, ServiceUnavailableError } from "./errors.js";
/** The longest wait a `Retry-After` is followed for. */
const retryAfterCapMs = 20_000;
/** Exponential backoff without `Retry-After`: the first retry's ceiling, and the highest. */
const backoffBaseMs = 500;
const backoffCapMs = 8_000;
/**
 * Whether a request that failed with err is worth another attempt. Network failures, 429 and 503
 * always are: nothing was done, or the same `Idempotency-Key` makes the retry safe. 500, 502 and 504
 * only for a request that may be repeated (a read, or one with an `Idempotency-Key`).
 */
export function isRetryable(err, repeatable) {
    if (err instanceof ConnectionError || err.status === 429 || err.status === 503) {
        return true;
    }
    return repeatable && (err.status === 500 || err.status === 502 || err.status === 504);
}
/**
 * How long to wait, in milliseconds, before retry number `retry` (0 for the first) after err:
 * `Retry-After` when the answer gave one (at most 20 s), else exponential backoff with full jitter
 * (up to 0.5 s, 1 s, 2 s, … at most 8 s).
 */
export function retryDelayMs(retry, err) {
    const retryAfter = err instanceof RateLimitError || err instanceof ServiceUnavailableError ? err.retryAfter : null;
    if (retryAfter !== null && retryAfter > 0) {
        return Math.min(retryAfter * 1000, retryAfterCapMs);
    }
    return Math.random() * Math.min(backoffCapMs, backoffBaseMs * 2 ** retry);
}
