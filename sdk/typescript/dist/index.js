export { Client } from "./client.js";
export { ListingsResource } from "./listings.js";
export { AccountResource } from "./account.js";
export { VeroChecksResource } from "./vero-checks.js";
export { VERSION } from "./version.js";
export { A2EError, APIError, AuthenticationError, ConnectionError, IdempotencyError, InsufficientCreditsError, InvalidRequestError, NotFoundError, RateLimitError, ServiceUnavailableError, SpendingFrozenError, SpendLimitReachedError, } from "./errors.js";
