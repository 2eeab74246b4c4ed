import type { CreateListingOptions } from "./types.js";
/**
 * The `Idempotency-Key` a create sends: the caller's, or a fresh random UUID. Throws a TypeError,
 * before anything is sent, for an empty or non-string key.
 */
export declare function idempotencyKeyOf(options: CreateListingOptions): string;
