import type { ClientOptions, RateLimit, WithRateLimit } from "./types.js";
/** One call to the API. */
export interface Call {
    method: "GET" | "POST";
    /** The path and query, such as `/v1/listings?limit=2`. */
    path: string;
    /** The JSON body, serialised once: every attempt sends these bytes. */
    body?: string;
    idempotencyKey?: string;
    /** Overrides the client's `maxRetries` for this call. */
    maxRetries?: number;
}
export declare const sleep: (ms: number) => Promise<void>;
/** Sends calls with the API key, a timeout per attempt, and retries. Internal to the SDK. */
export declare class Transport {
    #private;
    constructor(options: ClientOptions);
    /**
     * Sends call until it succeeds, fails for good or the retries run out; the answer's JSON, with the
     * answer's rate limit as its `rateLimit` (not enumerable).
     */
    request<T extends object>(call: Call): Promise<T & WithRateLimit>;
}
/** The `X-RateLimit-*` headers; null unless all three are whole numbers. */
export declare function rateLimitOf(headers: {
    get(name: string): string | null;
}): RateLimit | null;
/** value with rateLimit as a property that JSON.stringify and spreads leave out. */
export declare function withRateLimit<T extends object>(value: T, rateLimit: RateLimit | null): T & WithRateLimit;
