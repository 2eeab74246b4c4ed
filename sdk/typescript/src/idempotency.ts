import { randomUUID } from "node:crypto";

import type { CreateListingOptions } from "./types.js";

/**
 * The `Idempotency-Key` a create sends: the caller's, or a fresh random UUID. Throws a TypeError,
 * before anything is sent, for an empty or non-string key.
 */
export function idempotencyKeyOf(options: CreateListingOptions): string {
  if (options.idempotencyKey !== undefined && (typeof options.idempotencyKey !== "string" || options.idempotencyKey === "")) {
    throw new TypeError("idempotencyKey must be a non-empty string; leave it out to have one made");
  }
  return options.idempotencyKey ?? randomUUID();
}
