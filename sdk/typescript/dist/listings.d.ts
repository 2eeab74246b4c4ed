import { type Transport } from "./transport.js";
import type { CreateListingOptions, CreateListingParams, CreatedListing, ListListingsParams, Listing, ListingPage, WithRateLimit } from "./types.js";
/** `client.listings`: listing requests, 1 credit each to create, free to read. */
export declare class ListingsResource {
    #private;
    /** Made by {@link Client}. */
    constructor(transport: Transport);
    /**
     * Requests a listing of an Amazon product, for 1 credit. The request carries an `Idempotency-Key`
     * (the one given, or a fresh UUID) and the same body on every retry, so it is charged at most once.
     * Should the outcome stay unknown once the retries run out (`commit_outcome_unknown`), the listing
     * is looked up by its key once, after one more wait: found, it is returned; not found, the error is thrown. The result
     * and every error carry the key.
     */
    create(params: CreateListingParams, options?: CreateListingOptions): Promise<CreatedListing & WithRateLimit>;
    /** One of the account's listings; `NotFoundError` for an id it does not have. */
    retrieve(id: string): Promise<Listing & WithRateLimit>;
    /** A page of the account's listings, newest first; pass `nextCursor` as `cursor` for the next. */
    list(params?: ListListingsParams): Promise<ListingPage & WithRateLimit>;
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
    listAll(params?: Omit<ListListingsParams, "idempotencyKey">): AsyncGenerator<Listing, void, undefined>;
    /**
     * The listing that a create with this `Idempotency-Key` made, or null if none was: resolves a
     * pending operation, even after the 24 h replay window.
     */
    findByIdempotencyKey(idempotencyKey: string): Promise<(Listing & WithRateLimit) | null>;
}
