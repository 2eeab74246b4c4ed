import { A2EError } from "./errors.js";
/**
 * Whether a request that failed with err is worth another attempt. Network failures, 429 and 503
 * always are: nothing was done, or the same `Idempotency-Key` makes the retry safe. 500, 502 and 504
 * only for a request that may be repeated (a read, or one with an `Idempotency-Key`).
 */
export declare function isRetryable(err: A2EError, repeatable: boolean): boolean;
/**
 * How long to wait, in milliseconds, before retry number `retry` (0 for the first) after err:
 * `Retry-After` when the answer gave one (at most 20 s), else exponential backoff with full jitter
 * (up to 0.5 s, 1 s, 2 s, … at most 8 s).
 */
export declare function retryDelayMs(retry: number, err: A2EError): number;
