import { A2EError, APIError, ConnectionError, errorOf } from "./errors.js";
import { isRetryable, retryDelayMs } from "./retry.js";
import type { ClientOptions, RateLimit, WithRateLimit } from "./types.js";
import { userAgent } from "./version.js";

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

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sends calls with the API key, a timeout per attempt, and retries. Internal to the SDK. */
export class Transport {
  // Private fields stay out of util.inspect, JSON.stringify and the error messages.
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #maxRetries: number;
  readonly #timeoutMs: number;

  constructor(options: ClientOptions) {
    const { apiKey, baseUrl, maxRetries = 3, timeoutMs = 30_000 } = options;
    if (typeof apiKey !== "string" || apiKey === "") {
      throw new TypeError("apiKey is required");
    }
    if (typeof baseUrl !== "string" || !/^https?:\/\/[^/]/i.test(baseUrl)) {
      throw new TypeError("baseUrl must be an http(s) URL, such as https://api.example.com");
    }
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new TypeError("maxRetries must be a whole number, 0 or more");
    }
    if (!(timeoutMs > 0)) {
      throw new TypeError("timeoutMs must be more than 0");
    }
    this.#apiKey = apiKey;
    this.#baseUrl = baseUrl.replace(/\/+$/, "");
    this.#maxRetries = maxRetries;
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Sends call until it succeeds, fails for good or the retries run out; the answer's JSON, with the
   * answer's rate limit as its `rateLimit` (not enumerable).
   */
  async request<T extends object>(call: Call): Promise<T & WithRateLimit> {
    const maxRetries = call.maxRetries ?? this.#maxRetries;
    const repeatable = call.method === "GET" || call.idempotencyKey !== undefined;
    for (let retry = 0; ; retry++) {
      try {
        const { body, headers } = await this.#attempt(call);
        return withRateLimit(body as T, rateLimitOf(headers));
      } catch (err) {
        if (!(err instanceof A2EError) || retry >= maxRetries || !isRetryable(err, repeatable)) {
          throw err;
        }
        await sleep(retryDelayMs(retry, err));
      }
    }
  }

  /** Sends call once: the answer's JSON, or the error it stands for. */
  async #attempt(call: Call): Promise<{ body: unknown; headers: Headers }> {
    const idempotencyKey = call.idempotencyKey ?? null;
    const headers: Record<string, string> = {
      "X-API-Key": this.#apiKey,
      Accept: "application/json",
      "User-Agent": userAgent,
    };
    if (call.body !== undefined) {
      headers["Content-Type"] = "application/json";
    }
    if (idempotencyKey !== null) {
      headers["Idempotency-Key"] = idempotencyKey;
    }
    let res: Response;
    let text: string;
    try {
      res = await fetch(this.#baseUrl + call.path, {
        method: call.method,
        headers,
        body: call.body,
        // A redirect is not followed: the X-API-Key would go to whatever host it names. A 3xx is
        // an APIError like any answer that is not a success.
        redirect: "manual",
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      text = await res.text();
    } catch (cause) {
      throw new ConnectionError({ message: this.#describe(cause), idempotencyKey, cause });
    }
    const body = parseJSON(text);
    if (!res.ok) {
      throw errorOf(res.status, res.headers, body, idempotencyKey);
    }
    if (body === undefined || typeof body !== "object" || body === null) {
      throw new APIError({
        message: `The API answered HTTP ${res.status} with a body that is not a JSON object`,
        status: res.status,
        requestId: res.headers.get("X-Request-ID"),
        idempotencyKey,
      });
    }
    return { body, headers: res.headers };
  }

  /** Why an attempt got no answer, in words. */
  #describe(cause: unknown): string {
    if (cause instanceof Error && cause.name === "TimeoutError") {
      return `${this.#baseUrl} did not answer within ${this.#timeoutMs} ms`;
    }
    // fetch's own TypeError says only "fetch failed"; its cause says why (ECONNREFUSED, ...).
    const reason = cause instanceof Error && cause.cause instanceof Error ? cause.cause : cause;
    return `Could not reach ${this.#baseUrl}: ${reason instanceof Error ? reason.message : String(reason)}`;
  }
}

/** text's JSON value; undefined when it is not JSON. */
function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The `X-RateLimit-*` headers; null unless all three are whole numbers. */
export function rateLimitOf(headers: { get(name: string): string | null }): RateLimit | null {
  const read = (name: string) => {
    const v = headers.get(name);
    return v !== null && /^[0-9]+$/.test(v.trim()) ? Number(v) : null;
  };
  const limit = read("X-RateLimit-Limit");
  const remaining = read("X-RateLimit-Remaining");
  const reset = read("X-RateLimit-Reset");
  return limit === null || remaining === null || reset === null ? null : { limit, remaining, reset };
}

/** value with rateLimit as a property that JSON.stringify and spreads leave out. */
export function withRateLimit<T extends object>(value: T, rateLimit: RateLimit | null): T & WithRateLimit {
  Object.defineProperty(value, "rateLimit", { value: rateLimit, enumerable: false, configurable: true });
  return value as T & WithRateLimit;
}
