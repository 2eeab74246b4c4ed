// VeRO checks, auto-pagination, the rate limit on results, the User-Agent and Retry-After's rule.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { Client, VERSION } from "../dist/index.js";
import { parseRetryAfter } from "../dist/errors.js";
import { apiError, fakeApi, listing } from "./fake-api.mjs";

const apiKey = "ak_test_secret";
const limits = (remaining) => ({ "X-RateLimit-Limit": "20", "X-RateLimit-Remaining": String(remaining), "X-RateLimit-Reset": "1768471505" });

test("every request names the SDK and its version in User-Agent", async (t) => {
  const api = await fakeApi(t, [{ body: { email: "a@example.com" } }]);
  await new Client({ apiKey, baseUrl: api.baseUrl }).account.retrieve();
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  assert.equal(VERSION, pkg.version);
  assert.equal(api.requests[0].headers["user-agent"], `a2e-sdk-typescript/${pkg.version}`);
});

test("Retry-After follows the vectors every SDK shares", () => {
  const { vectors } = JSON.parse(readFileSync(new URL("../../conformance/retry-after.json", import.meta.url), "utf8"));
  assert.ok(vectors.length > 0);
  for (const { header, seconds } of vectors) {
    assert.equal(parseRetryAfter(header), seconds, `Retry-After ${JSON.stringify(header)}`);
  }
});

test("a fractional Retry-After is waited as said", async (t) => {
  const api = await fakeApi(t, [apiError(429, "rate_limited", {}, { "Retry-After": "0.25" }), { body: { email: "a@example.com" } }]);
  const started = Date.now();
  await new Client({ apiKey, baseUrl: api.baseUrl }).account.retrieve();
  const took = Date.now() - started;
  assert.equal(api.requests.length, 2);
  assert.ok(took >= 240 && took < 1000, `took ${took} ms, want 250`);
});

test("every result carries the rate limit, left out of JSON; null without the headers", async (t) => {
  const api = await fakeApi(t, [
    { body: { email: "a@example.com" }, headers: limits(19) },
    { body: listing, headers: limits(18) },
    { body: { data: [listing], nextCursor: null }, headers: limits(17) },
    { body: { data: [listing], nextCursor: null }, headers: limits(16) },
    { body: { email: "a@example.com" } },
  ]);
  const client = new Client({ apiKey, baseUrl: api.baseUrl });
  const account = await client.account.retrieve();
  assert.equal(account.rateLimit.remaining, 19);
  assert.equal(JSON.stringify(account), JSON.stringify({ email: "a@example.com" }));
  assert.equal((await client.listings.retrieve(listing.id)).rateLimit.remaining, 18);
  assert.equal((await client.listings.list()).rateLimit.remaining, 17);
  assert.equal((await client.listings.findByIdempotencyKey("k")).rateLimit.remaining, 16);
  assert.equal((await client.account.retrieve()).rateLimit, null);
});

test("listAll follows the cursor page after page, retrying a page as any read", async (t) => {
  const page = (ids, nextCursor) => ({ body: { data: ids.map((id) => ({ ...listing, id })), nextCursor } });
  const api = await fakeApi(t, [
    page(["L5", "L4"], "c2"),
    page(["L3", "L2"], "c3"),
    apiError(503, "service_unavailable", {}, { "Retry-After": "0.01" }),
    page(["L1"], null),
  ]);
  const ids = [];
  for await (const l of new Client({ apiKey, baseUrl: api.baseUrl }).listings.listAll({ limit: 2 })) {
    ids.push(l.id);
  }
  assert.deepEqual(ids, ["L5", "L4", "L3", "L2", "L1"]);
  assert.deepEqual(
    api.requests.map((r) => r.url),
    ["/v1/listings?limit=2", "/v1/listings?limit=2&cursor=c2", "/v1/listings?limit=2&cursor=c3", "/v1/listings?limit=2&cursor=c3"],
  );
});

test("listAll throws the error that stops it", async (t) => {
  const api = await fakeApi(t, [{ body: { data: [listing], nextCursor: "c2" } }, apiError(401, "api_key_invalid")]);
  const seen = [];
  await assert.rejects(async () => {
    for await (const l of new Client({ apiKey, baseUrl: api.baseUrl }).listings.listAll()) {
      seen.push(l.id);
    }
  }, { name: "AuthenticationError" });
  assert.deepEqual(seen, [listing.id]);
});
