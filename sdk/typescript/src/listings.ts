import { randomUUID } from "node:crypto";

import { ServiceUnavailableError } from "./errors.js";
import { retryDelayMs } from "./retry.js";
import { sleep, type Transport } from "./transport.js";
import type {
  CreateListingOptions,
  CreateListingParams,
  CreatedListing,
  ListListingsParams,
  Listing,
  ListingPage,
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
  async create(params: CreateListingParams, options: CreateListingOptions = {}): Promise<CreatedListing> {
    if (options.idempotencyKey !== undefined && (typeof options.idempotencyKey !== "string" || options.idempotencyKey === "")) {
      throw new TypeError("idempotencyKey must be a non-empty string; leave it out to have one made");
    }
    const idempotencyKey = options.idempotencyKey ?? randomUUID();
    const body = JSON.stringify({ amazonUrl: params.amazonUrl });
    try {
      const listing = await this.#transport.request<Omit<CreatedListing, "idempotencyKey">>({
        method: "POST",
        path: "/v1/listings",
        body,
        idempotencyKey,
      });
      return { ...listing, idempotencyKey };
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
      return { ...found, idempotencyKey };
    }
  }

  /** One of the account's listings; `NotFoundError` for an id it does not have. */
  retrieve(id: string): Promise<Listing> {
    return this.#transport.request<Listing>({ method: "GET", path: `/v1/listings/${encodeURIComponent(id)}` });
  }

  /** A page of the account's listings, newest first; pass `nextCursor` as `cursor` for the next. */
  list(params: ListListingsParams = {}): Promise<ListingPage> {
    return this.#list(params);
  }

  /**
   * The listing that a create with this `Idempotency-Key` made, or null if none was: resolves a
   * pending operation, even after the 24 h replay window.
   */
  findByIdempotencyKey(idempotencyKey: string): Promise<Listing | null> {
    return this.#find(idempotencyKey);
  }

  async #find(idempotencyKey: string, maxRetries?: number): Promise<Listing | null> {
    const page = await this.#list({ idempotencyKey }, maxRetries);
    return page.data[0] ?? null;
  }

  #list(params: ListListingsParams, maxRetries?: number): Promise<ListingPage> {
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
