import { createHmac, timingSafeEqual } from "node:crypto";

import { WebhookHeaderError, WebhookPayloadError, WebhookSignatureError, WebhookTimestampError } from "./errors.js";

/** The header a webhook delivery is signed in. */
export const WEBHOOK_SIGNATURE_HEADER = "A2E-Signature";

/** How many seconds a delivery's signed time may be from now, either way, by default. */
export const DEFAULT_WEBHOOK_TOLERANCE = 300;

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

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i;
const encoder = new TextEncoder();

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
export function verifyWebhook<Data = Record<string, unknown>>(
  payload: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  tolerance: number = DEFAULT_WEBHOOK_TOLERANCE,
  now: number = Date.now() / 1000,
): WebhookEvent<Data> {
  if (typeof secret !== "string" || secret === "") {
    throw new TypeError("verifyWebhook: the secret is empty");
  }
  if (typeof tolerance !== "number" || !(tolerance > 0)) {
    throw new TypeError("verifyWebhook: the tolerance must be a positive number of seconds");
  }
  const { t, signatures } = parseHeader(header ?? "");
  const expected = encoder.encode(createHmac("sha256", secret).update(`${t}.`).update(payload).digest("hex"));
  let matched = false;
  for (const signature of signatures) {
    matched = timingSafeEqual(encoder.encode(signature.toLowerCase()), expected) || matched;
  }
  if (!matched) {
    throw new WebhookSignatureError({
      code: "signature_mismatch",
      message: "No v1 signature matches the body and timestamp with this secret",
    });
  }
  const age = Math.abs(Math.floor(now) - t);
  if (age > tolerance) {
    throw new WebhookTimestampError({
      code: "timestamp_outside_tolerance",
      message: `t=${t} is ${age} s from now, over the tolerance of ${tolerance} s`,
    });
  }
  return parseEvent<Data>(payload);
}

/** The header's `t` and its `v1` values (64 hex digits each); other schemes are ignored. */
function parseHeader(header: string): { t: number; signatures: string[] } {
  const malformed = (message: string) => new WebhookHeaderError({ code: "malformed_header", message });
  if (header.trim() === "") {
    throw malformed("The A2E-Signature header is empty");
  }
  let t: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const item = part.trim();
    const eq = item.indexOf("=");
    if (eq < 0) {
      throw malformed("A part of the A2E-Signature header is not key=value");
    }
    const key = item.slice(0, eq);
    const value = item.slice(eq + 1);
    if (key === "t") {
      if (t !== null) {
        throw malformed("t is given twice");
      }
      if (!/^[0-9]{1,15}$/.test(value)) {
        throw malformed("t is not Unix seconds");
      }
      t = Number(value);
    } else if (key === "v1") {
      if (!/^[0-9a-f]{64}$/i.test(value)) {
        throw malformed("A v1 is not 64 hex digits");
      }
      signatures.push(value);
    }
  }
  if (t === null) {
    throw malformed("The A2E-Signature header has no t");
  }
  if (signatures.length === 0) {
    throw malformed("The A2E-Signature header has no v1 signature");
  }
  return { t, signatures };
}

/** The event of a verified body. */
function parseEvent<Data>(payload: string | Uint8Array): WebhookEvent<Data> {
  const malformed = (message: string) => new WebhookPayloadError({ code: "malformed_payload", message });
  let body: unknown;
  try {
    const text = typeof payload === "string" ? payload : new TextDecoder("utf-8", { fatal: true }).decode(payload);
    body = JSON.parse(text);
  } catch (cause) {
    throw new WebhookPayloadError({ code: "malformed_payload", message: "The body is not JSON", cause });
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw malformed("The body is not a JSON object");
  }
  const { id, type, createdAt, data } = body as Record<string, unknown>;
  if (typeof id !== "string" || id === "" || typeof type !== "string" || type === "" || typeof createdAt !== "string") {
    throw malformed("The body lacks id, type or createdAt");
  }
  if (!RFC3339.test(createdAt) || Number.isNaN(Date.parse(createdAt))) {
    throw malformed("createdAt is not an RFC 3339 time");
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw malformed("data is not a JSON object");
  }
  return { id, type, createdAt, data: data as Data };
}
