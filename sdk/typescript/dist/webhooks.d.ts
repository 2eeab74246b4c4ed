/** The header a webhook delivery is signed in. */
export declare const WEBHOOK_SIGNATURE_HEADER = "A2E-Signature";
/** How many seconds a delivery's signed time may be from now, either way, by default. */
export declare const DEFAULT_WEBHOOK_TOLERANCE = 300;
/** The body of a webhook delivery. */
export interface WebhookEvent<Data = Record<string, unknown>> {
    /** The event's id: the same on every attempt and resend, so a receiver can handle each event once. */
    id: string;
    /** The event's type, such as `"credits.granted"`. */
    type: string;
    /** When the event happened in the account's ledger (RFC 3339, as the body has it). */
    createdAt: string;
    /** The type's fields (see the webhooks guide). */
    data: Data;
}
/**
 * Checks a webhook delivery and returns its event.
 *
 * @param payload the request body exactly as received (a string or the raw bytes), before any JSON parsing
 * @param header the `A2E-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, with
 *   two `v1` while a rolled secret's old one is still valid (any one matching is enough)
 * @param secret the endpoint's signing secret (`whsec_…`); the HMAC key is the whole string's UTF-8 bytes
 * @param tolerance seconds the signed time may be from now, either way (default 300)
 * @param now the current time in Unix seconds (default the clock's)
 * @throws {WebhookSignatureError | WebhookTimestampError | WebhookHeaderError | WebhookPayloadError} the
 *   signature is checked (in constant time) before the time
 * @throws {TypeError} an empty secret or a tolerance that is not a positive number
 */
export declare function verifyWebhook<Data = Record<string, unknown>>(payload: string | Uint8Array, header: string | null | undefined, secret: string, tolerance?: number, now?: number): WebhookEvent<Data>;
