import { ServiceUnavailableError } from "./errors.js";
import { idempotencyKeyOf } from "./idempotency.js";
import { retryDelayMs } from "./retry.js";
import { sleep, withRateLimit, type Transport } from "./transport.js";
import type {
  CreateListingOptions,
  CreateListingParams,
  CreatedListing,
  ListListingsParams,
  Listing,
  ListingPage,
  WithRateLimit,
} from "./types.js";

/** `client.listings`: listing requests, 1 credit each to create, free to read. */
export class ListingsResource {
  readonly #transport: Transport;

  /** Made by {@link Client}. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Requests a listing of an Amazon product, for 1 credit. The request carries an `Idempotency-Key`
   * (the one given, or a fresh UUID) and the same body on every retry, so it is charged at most once.
   * Should the outcome stay unknown once the retries run out (`commit_outcome_unknown`), the listing
   * is looked up by its key once, after one more wait: found, it is returned; not found, the error is thrown. The result
   * and every error carry the key.
   */
  async create(params: CreateListingParams, options: CreateListingOptions = {}): Promise<CreatedListing & WithRateLimit> {
    const idempotencyKey = idempotencyKeyOf(options);
    const body = JSON.stringify({ amazonUrl: params.amazonUrl });
    try {
      const listing = await this.#transport.request<Omit<CreatedListing, "idempotencyKey">>({
        method: "POST",
        path: "/v1/listings",
        body,
        idempotencyKey,
      });
      return withRateLimit({ ...listing, idempotencyKey }, listing.rateLimit);
    } catch (err) {
      if (!(err instanceof ServiceUnavailableError && err.outcomeUnknown)) {
        throw err;
      }
      // A COMMIT whose answer was cut may still be landing: wait as before a retry, then read back
      // once, not retried: if that fails too, the outcome is still unknown.
      await sleep(retryDelayMs(0, err));
      const found = await this.#find(idempotencyKey, 0).catch(() => null);
      if (found === null) {
        throw err;
      }
      return withRateLimit({ ...found, idempotencyKey }, found.rateLimit);
    }
  }

  /** One of the account's listings; `NotFoundError` for an id it does not have. */
  retrieve(id: string): Promise<Listing & WithRateLimit> {
    return this.#transport.request<Listing>({ method: "GET", path: `/v1/listings/${encodeURIComponent(id)}` });
  }

  /** A page of the account's listings, newest first; pass `nextCursor` as `cursor` for the next. */
  list(params: ListListingsParams = {}): Promise<ListingPage & WithRateLimit> {
    return this.#list(params);
  }

  /**
   * Every listing of the account, newest first, fetching page after page (following `nextCursor`)
   * as the loop goes, as Stripe's auto-pagination does:
   *
   * ```ts
   * for await (const listing of client.listings.listAll({ limit: 100 })) { … }
   * ```
   *
   * `limit` is the page size; `cursor`, if given, is where it starts. Each page is one read, retried
   * as any read; an error ends the loop by being thrown.
   */
  async *listAll(params: Omit<ListListingsParams, "idempotencyKey"> = {}): AsyncGenerator<Listing, void, undefined> {
    let cursor = params.cursor;
    for (;;) {
      const page = await this.#list({ ...params, cursor });
      yield* page.data;
      if (page.nextCursor === null || page.nextCursor === undefined) {
        return;
      }
      cursor = page.nextCursor;
    }
  }

  /**
   * The listing that a create with this `Idempotency-Key` made, or null if none was: resolves a
   * pending operation, even after the 24 h replay window.
   */
  findByIdempotencyKey(idempotencyKey: string): Promise<(Listing & WithRateLimit) | null> {
    return this.#find(idempotencyKey);
  }

  async #find(idempotencyKey: string, maxRetries?: number): Promise<(Listing & WithRateLimit) | null> {
    const page = await this.#list({ idempotencyKey }, maxRetries);
    const found = page.data[0];
    return found === undefined ? null : withRateLimit(found, page.rateLimit);
  }

  #list(params: ListListingsParams, maxRetries?: number): Promise<ListingPage & WithRateLimit> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) {
      if (value !== undefined) {
        query.set(name, String(value));
      }
    }
    const path = query.toString() === "" ? "/v1/listings" : `/v1/listings?${query}`;
    return this.#transport.request<ListingPage>({ method: "GET", path, maxRetries });
  }
}
