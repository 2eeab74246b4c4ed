export { Client } from "./client.js";
export { ListingsResource } from "./listings.js";
export { AccountResource } from "./account.js";
export { VeroChecksResource } from "./vero-checks.js";
export { VERSION } from "./version.js";
export { DEFAULT_WEBHOOK_TOLERANCE, verifyWebhook, WEBHOOK_SIGNATURE_HEADER } from "./webhooks.js";
export { A2EError, APIError, AuthenticationError, ConnectionError, IdempotencyError, InsufficientCreditsError, InvalidRequestError, NotFoundError, RateLimitError, ServiceUnavailableError, SpendingFrozenError, SpendLimitReachedError, WebhookHeaderError, WebhookPayloadError, WebhookSignatureError, WebhookTimestampError, WebhookVerificationError, } from "./errors.js";
