import assert from "node:assert/strict";
import { test } from "node:test";

import {
  APIError,
  Client,
  ConnectionError,
  ServiceUnavailableError,
} from "../dist/index.js";
import { apiError, fakeApi, listing } from "./fake-api.mjs";

const amazonUrl = "https://www.amazon.com/dp/B08N5WRWNW";
const now = { "Retry-After": "0" };
const rateLimited = apiError(429, "rate_limited", {}, now);
const unavailable = apiError(503, "service_unavailable", {}, now);
const outcomeUnknown = apiError(503, "commit_outcome_unknown", {}, now);
const created = { status: 201, body: { ...listing, creditsRemaining: 4 } };

/** A client of api whose backoff waits are 0 (full jitter with Math.random() = 0). */
function clientOf(t, api, options = {}) {
  t.mock.method(Math, "random", () => 0);
  return new Client({ apiKey: "ak_test_secret", baseUrl: api.baseUrl, ...options });
}

/** An answer by method: post to the creates (POST), readBack to the read-back (GET). */
function byMethod(post, readBack) {
  return (req) => (req.method === "POST" ? post : readBack);
}

test("a create is retried through 429, 503, a cut connection and 500 with the same key and bytes", async (t) => {
  const api = await fakeApi(t, [rateLimited, unavailable, "cut", apiError(500, "internal_error"), created]);
  const client = clientOf(t, api, { maxRetries: 4 });

  const result = await client.listings.create({ amazonUrl });

  assert.equal(api.requests.length, 5);
  const key = api.requests[0].headers["idempotency-key"];
  const body = JSON.stringify({ amazonUrl });
  assert.ok(api.requests.every((r) => r.headers["idempotency-key"] === key && r.body === body));
  assert.equal(result.idempotencyKey, key);
  assert.equal(result.creditsRemaining, 4);
});

test("reads are retried on 502 and 504, even without a JSON body", async (t) => {
  const badGateway = { status: 502, body: "<html>Bad Gateway</html>" };
  const api = await fakeApi(t, [badGateway, apiError(504, "gateway_timeout"), { body: {} }]);

  await clientOf(t, api).account.retrieve();

  assert.equal(api.requests.length, 3);
});

test("the retries stop at maxRetries and the last error is thrown, with the key", async (t) => {
  const api = await fakeApi(t, [unavailable]);
  const client = clientOf(t, api, { maxRetries: 2 });

  const err = await client.listings.create({ amazonUrl }, { idempotencyKey: "k-503" }).catch((e) => e);

  assert.equal(api.requests.length, 3);
  assert.ok(err instanceof ServiceUnavailableError);
  assert.equal(err.outcomeUnknown, false);
  assert.equal(err.retryAfter, null, "Retry-After: 0 is as absent");
  assert.equal(err.idempotencyKey, "k-503");
  assert.equal(err.requestId, "req-503-service_unavailable");
});

test("Retry-After is waited for", async (t) => {
  const api = await fakeApi(t, [apiError(429, "rate_limited", {}, { "Retry-After": "1" }), { body: {} }]);
  const started = Date.now();

  await clientOf(t, api).account.retrieve();

  assert.equal(api.requests.length, 2);
  assert.ok(Date.now() - started >= 1000, "waited at least 1 s");
});

test("no answer after the retries is a ConnectionError with the key", async (t) => {
  const api = await fakeApi(t, ["cut"]);
  const client = clientOf(t, api, { maxRetries: 1 });

  const err = await client.listings.create({ amazonUrl }, { idempotencyKey: "k-net" }).catch((e) => e);

  assert.equal(api.requests.length, 2);
  assert.ok(err instanceof ConnectionError);
  assert.equal(err.name, "ConnectionError");
  assert.equal(err.status, null);
  assert.equal(err.code, null);
  assert.equal(err.requestId, null);
  assert.equal(err.idempotencyKey, "k-net");
  assert.ok(err.cause, "the network error is the cause");
});

test("an attempt longer than timeoutMs is abandoned and retried", async (t) => {
  const api = await fakeApi(t, ["hang", { body: {} }]);
  await clientOf(t, api, { timeoutMs: 100 }).account.retrieve();
  assert.equal(api.requests.length, 2);

  const hung = await fakeApi(t, ["hang"]);
  const err = await clientOf(t, hung, { timeoutMs: 100, maxRetries: 0 }).account.retrieve().catch((e) => e);
  assert.ok(err instanceof ConnectionError);
  assert.match(err.message, /did not answer within 100 ms/);
});

// The read-back that finds nothing is the case "a COMMIT lost, without retries" (test/cases.test.mjs).
test("an unknown outcome whose read-back fails is thrown with outcomeUnknown, the read-back not retried", async (t) => {
  const api = await fakeApi(t, [byMethod(outcomeUnknown, unavailable)]);
  const client = clientOf(t, api, { maxRetries: 1 });

  const err = await client.listings.create({ amazonUrl }, { idempotencyKey: "k-lost" }).catch((e) => e);

  assert.ok(err instanceof ServiceUnavailableError);
  assert.equal(err.outcomeUnknown, true);
  assert.equal(err.code, "commit_outcome_unknown");
  assert.equal(err.idempotencyKey, "k-lost");
  assert.deepEqual(api.requests.map((r) => r.method), ["POST", "POST", "GET"], "one read-back, not retried");
});

test("a redirect is not followed: the key stays home, and the 3xx is an APIError, not retried", async (t) => {
  const elsewhere = await fakeApi(t, [{ body: {} }]);
  const api = await fakeApi(t, [{ status: 302, headers: { Location: `${elsewhere.baseUrl}/v1/account` }, body: "" }]);
  const client = clientOf(t, api);

  const err = await client.account.retrieve().catch((e) => e);

  assert.ok(err instanceof APIError, String(err));
  assert.equal(err.status, 302);
  assert.equal(api.requests.length, 1);
  assert.equal(elsewhere.requests.length, 0);
});
