import assert from "node:assert/strict";
import { test } from "node:test";
import { inspect } from "node:util";

import {
  A2EError,
  APIError,
  AuthenticationError,
  Client,
  InvalidRequestError,
  RateLimitError,
} from "../dist/index.js";
import { errorOf, parseRetryAfter } from "../dist/errors.js";
import { retryDelayMs } from "../dist/retry.js";
import { apiError, fakeApi } from "./fake-api.mjs";

const apiKey = "ak_test_do_not_show_me";

// The codes cases.json answers (test/cases.test.mjs) are not repeated here: only the others.
test("each status and code is its error class, with the answer's fields", async (t) => {
  const cases = [
    [401, "api_key_missing", AuthenticationError],
    [403, "forbidden", APIError],
    [405, "method_not_allowed", InvalidRequestError],
    [413, "request_too_large", InvalidRequestError],
    [415, "unsupported_media_type", InvalidRequestError],
    [422, "unprocessable", InvalidRequestError],
    [500, "internal_error", APIError],
  ];
  const api = await fakeApi(t, cases.map(([status, code]) => apiError(status, code)));
  const client = new Client({ apiKey, baseUrl: api.baseUrl, maxRetries: 0 });

  for (const [status, code, Class] of cases) {
    const err = await client.listings.retrieve("x").catch((e) => e);
    assert.ok(err instanceof Class && err instanceof A2EError && err instanceof Error, `${status} ${code}: ${err}`);
    assert.equal(err.name, Class.name);
    assert.equal(err.status, status);
    assert.equal(err.code, code);
    assert.equal(err.message, `${code} message`);
    assert.equal(err.requestId, `req-${status}-${code}`);
    assert.equal(err.idempotencyKey, null);
  }
});

test("the fields that some errors add", async (t) => {
  const api = await fakeApi(t, [
    apiError(400, "invalid_request", { errors: { amazonUrl: "amazonUrl must be an Amazon product URL" } }),
    apiError(429, "rate_limited", {}, { "Retry-After": "30" }),
  ]);
  const client = new Client({ apiKey, baseUrl: api.baseUrl, maxRetries: 0 });
  const fail = () => client.account.retrieve().catch((e) => e);

  assert.deepEqual((await fail()).fieldErrors, { amazonUrl: "amazonUrl must be an Amazon product URL" });
  assert.equal((await fail()).retryAfter, 30);
});

test("an answer that is not the API's JSON is an APIError with the X-Request-ID", async (t) => {
  const api = await fakeApi(t, [
    { status: 502, body: "<html>Bad Gateway</html>", headers: { "X-Request-ID": "rid-1" } },
    { status: 200, body: "not json" },
  ]);
  const client = new Client({ apiKey, baseUrl: api.baseUrl, maxRetries: 0 });

  const gateway = await client.account.retrieve().catch((e) => e);
  assert.ok(gateway instanceof APIError);
  assert.equal(gateway.status, 502);
  assert.equal(gateway.code, null);
  assert.equal(gateway.requestId, "rid-1");
  assert.equal(gateway.message, "The API answered HTTP 502");

  await assert.rejects(client.account.retrieve(), APIError);
});

test("the API key appears in no string form of the client and in no error", async (t) => {
  const api = await fakeApi(t, [apiError(401, "api_key_invalid"), "cut"]);
  const client = new Client({ apiKey, baseUrl: api.baseUrl, maxRetries: 0 });

  const shown = [
    inspect(client, { showHidden: true, depth: Infinity }),
    JSON.stringify(client),
    String(client),
    `${client.listings} ${client.account}`,
  ];
  const unauthenticated = await client.account.retrieve().catch((e) => e);
  const cut = await client.account.retrieve().catch((e) => e);
  for (const err of [unauthenticated, cut]) {
    shown.push(inspect(err, { showHidden: true, depth: Infinity }), JSON.stringify(err), String(err), err.stack);
  }
  for (const text of shown) {
    assert.ok(!text.includes(apiKey), text);
  }
});

test("options are checked, without echoing the key", () => {
  const baseUrl = "http://127.0.0.1:1";
  for (const options of [
    { baseUrl },
    { apiKey: "", baseUrl },
    { apiKey },
    { apiKey, baseUrl: "127.0.0.1:8080" },
    { apiKey, baseUrl, maxRetries: -1 },
    { apiKey, baseUrl, maxRetries: 1.5 },
    { apiKey, baseUrl, timeoutMs: 0 },
  ]) {
    assert.throws(() => new Client(options), (err) => err instanceof TypeError && !err.message.includes(apiKey));
  }
});

test("Retry-After is seconds or an HTTP date", () => {
  const now = Date.parse("2026-11-25T16:00:00Z");
  assert.equal(parseRetryAfter(null), null);
  assert.equal(parseRetryAfter(""), null);
  assert.equal(parseRetryAfter("soon"), null);
  assert.equal(parseRetryAfter("5"), 5);
  assert.equal(parseRetryAfter("-3"), null, "negative: as absent");
  assert.equal(parseRetryAfter("0"), null, "0: as absent");
  assert.equal(parseRetryAfter("Wed, 25 Nov 2026 16:00:07 GMT", now), 7);
  assert.equal(parseRetryAfter("Wed, 25 Nov 2026 15:00:00 GMT", now), null, "in the past: as absent");
});

test("the wait is Retry-After capped at 20 s, else full-jitter backoff from 0.5 s up to 8 s", (t) => {
  const rateLimited = (retryAfter) => new RateLimitError({ message: "", retryAfter });
  assert.equal(retryDelayMs(0, rateLimited(2)), 2000);
  assert.equal(retryDelayMs(0, rateLimited(600)), 20_000);

  const other = new APIError({ message: "" });
  t.mock.method(Math, "random", () => 0.999999);
  const ceilings = [0, 1, 2, 3, 4, 5, 10].map((retry) => Math.round(retryDelayMs(retry, other)));
  assert.deepEqual(ceilings, [500, 1000, 2000, 4000, 8000, 8000, 8000]);
  t.mock.method(Math, "random", () => 0);
  assert.equal(retryDelayMs(3, other), 0);
  assert.equal(retryDelayMs(0, rateLimited(null)), 0, "no Retry-After: backoff");
});

test("Retry-After 0 or negative is as absent: the wait is the jittered backoff", (t) => {
  t.mock.method(Math, "random", () => 0.5);
  for (const value of ["0", "-4"]) {
    const err = errorOf(429, new Headers({ "Retry-After": value }), { code: "rate_limited" }, null);
    assert.equal(err.retryAfter, null, value);
    assert.equal(retryDelayMs(1, err), 500, value);
  }
  assert.equal(retryDelayMs(0, new RateLimitError({ message: "", retryAfter: 0 })), 250);
});
