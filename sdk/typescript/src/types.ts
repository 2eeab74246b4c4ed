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

/** A listing request as the ledger keeps it (`GET /v1/listings/{id}`, the items of `GET /v1/listings`). */
export interface Listing {
  id: string;
  asin: string;
  /** The canonical product address, `https://www.amazon.<marketplace>/dp/<ASIN>`. */
  amazonUrl: string;
  /** Such as `"queued"`. */
  status: string;
  /** When it was requested, RFC 3339. */
  createdAt: string;
  /** The `Idempotency-Key` the listing was created with, if any. */
  idempotencyKey?: string;
  /** The id of the request that created (and was charged for) the listing. */
  requestId?: string;
}

/** The answer of {@link ListingsResource.create}. */
export interface CreatedListing extends Listing {
  /**
   * The balance right after the charge (a replay answers it as it was then). Absent when an unknown
   * outcome was resolved by reading the listing back.
   */
  creditsRemaining?: number;
  /** The `Idempotency-Key` that was sent: keep it with a pending operation to resolve it later. */
  idempotencyKey: string;
}

/** What {@link ListingsResource.create} asks for. */
export interface CreateListingParams {
  /** An Amazon product URL, such as `https://www.amazon.com/dp/B08N5WRWNW`. */
  amazonUrl: string;
}

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

/** A page of listings, newest first. */
export interface ListingPage {
  data: Listing[];
  /** The cursor of the next page; null on the last one. */
  nextCursor: string | null;
}

/** The account's balance and standing (`GET /v1/account`). */
export interface Account {
  email: string;
  /** Credits that can be spent now: `monthlyCredits + purchasedCredits + otherCredits`. */
  creditsAvailable: number;
  subscriptionStatus: string;
  /** A payment dispute is open: spending is paused and creates fail with `SpendingFrozenError`. */
  spendingFrozen: boolean;
  /** Credits owed; the next grant repays them first. */
  creditDebt: number;
  /** The subscription's credits left, which expire at `monthlyCreditsExpireAt`. */
  monthlyCredits: number;
  /** RFC 3339; null when there are no monthly credits. */
  monthlyCreditsExpireAt: string | null;
  /** Bought credit packs' credits left; they never expire. */
  purchasedCredits: number;
  /** Promotional and support-granted credits left. */
  otherCredits: number;
}

/** What {@link VeroChecksResource.create} asks for. */
export interface CreateVeroCheckParams {
  /** The brand, 1 to 100 characters once trimmed. */
  brand: string;
}

/** The answer of {@link VeroChecksResource.create}. */
export interface VeroCheck {
  id: string;
  /** The brand as asked, trimmed and with inner whitespace collapsed. */
  brand: string;
  /** Whether the brand is on the VeRO protected-brand list. */
  protected: boolean;
  /** The balance right after the charge (a replay answers it as it was then). */
  creditsRemaining: number;
  /** The `Idempotency-Key` that was sent. */
  idempotencyKey: string;
}
