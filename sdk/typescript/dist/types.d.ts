import type { components } from "./openapi.js";
/** What a {@link Client} is made with. */
export interface ClientOptions {
    /** The account's API key, sent as `X-API-Key`. It never appears in an error or a string form of the client. */
    apiKey: string;
    /** The API's address without `/v1`, such as `https://api.example.com`. */
    baseUrl: string;
    /** How many times a failed request is retried (default 3; 0 never retries). */
    maxRetries?: number;
    /** How long one attempt may take, in milliseconds (default 30 000). */
    timeoutMs?: number;
}
/**
 * The API key's rate limit as the answer's `X-RateLimit-*` headers told it. Every result carries it
 * as `rateLimit` (a property that `JSON.stringify` leaves out), null when the answer had none.
 */
export interface RateLimit {
    /** Requests the key may make per minute (`X-RateLimit-Limit`). */
    limit: number;
    /** Requests it may make right now, this one counted (`X-RateLimit-Remaining`). */
    remaining: number;
    /** When the whole allowance is back, in Unix seconds (`X-RateLimit-Reset`); it refills continuously before. */
    reset: number;
}
/** A result of a call: its rate limit, as Stripe's SDKs expose a response's headers. */
export interface WithRateLimit {
    /** Not enumerable: `JSON.stringify` and spreads leave it out. */
    readonly rateLimit: RateLimit | null;
}
/** The API's schemas, generated from its OpenAPI document (src/openapi.ts, `npm run generate`). */
type Schemas = components["schemas"];
/** The API's stable error codes (`code` of every error body). */
export type ErrorCode = Schemas["ErrorCode"];
/** A listing request as the ledger keeps it (`GET /v1/listings/{id}`, the items of `GET /v1/listings`). */
export type Listing = Schemas["ListingRecord"];
/**
 * The answer of {@link ListingsResource.create}: the API's `Listing` (with `creditsRemaining`, the balance
 * right after the charge; a replay answers it as it was then), and `idempotencyKey`, the key that was sent:
 * keep it with a pending operation to resolve it later. `creditsRemaining` is absent, and `requestId`
 * present, when an unknown outcome was resolved by reading the listing back.
 */
export type CreatedListing = Omit<Schemas["Listing"], "creditsRemaining"> & Partial<Pick<Schemas["Listing"], "creditsRemaining">> & Pick<Listing, "requestId"> & {
    idempotencyKey: string;
};
/** What {@link ListingsResource.create} asks for: an Amazon product URL, such as `https://www.amazon.com/dp/B08N5WRWNW`. */
export type CreateListingParams = Schemas["ListingRequest"];
/** How {@link ListingsResource.create} sends its request. */
export interface CreateListingOptions {
    /** The `Idempotency-Key` to send (at most 255 characters); default a fresh random UUID. */
    idempotencyKey?: string;
}
/** What {@link ListingsResource.list} asks for. */
export interface ListListingsParams {
    /** Listings per page, 1 to 100 (default 20). */
    limit?: number;
    /** The previous page's `nextCursor`. */
    cursor?: string;
    /** Only the listing this `Idempotency-Key` created (a page of one or none). */
    idempotencyKey?: string;
}
/** A page of listings, newest first; `nextCursor` is null on the last one. */
export type ListingPage = Schemas["ListingPage"];
/** The account's balance and standing (`GET /v1/account`). */
export type Account = Schemas["Account"];
/** What {@link VeroChecksResource.create} asks for: the brand, 1 to 100 characters once trimmed. */
export type CreateVeroCheckParams = Schemas["VeroCheckRequest"];
/** The answer of {@link VeroChecksResource.create}, with the `Idempotency-Key` that was sent. */
export type VeroCheck = Schemas["VeroCheck"] & {
    idempotencyKey: string;
};
export {};
