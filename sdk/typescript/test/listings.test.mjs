import assert from "node:assert/strict";
import { test } from "node:test";

import { Client } from "../dist/index.js";
import { fakeApi, listing } from "./fake-api.mjs";

const apiKey = "ak_test_secret";
const amazonUrl = "https://www.amazon.com/dp/B08N5WRWNW";

test("create sends the API key, a fresh UUID v4 Idempotency-Key and the body; the result has the key", async (t) => {
  const api = await fakeApi(t, [{ status: 201, body: { ...listing, creditsRemaining: 4 } }]);
  const client = new Client({ apiKey, baseUrl: `${api.baseUrl}/` });

  const created = await client.listings.create({ amazonUrl });

  const [req] = api.requests;
  assert.equal(req.method, "POST");
  assert.equal(req.url, "/v1/listings");
  assert.equal(req.headers["x-api-key"], apiKey);
  assert.equal(req.headers["content-type"], "application/json");
  assert.match(req.headers["idempotency-key"], /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(req.body, JSON.stringify({ amazonUrl }));
  assert.deepEqual(created, { ...listing, creditsRemaining: 4, idempotencyKey: req.headers["idempotency-key"] });
});

test("create sends the caller's Idempotency-Key, and a new one per create without it", async (t) => {
  const api = await fakeApi(t, [{ status: 201, body: listing }]);
  const client = new Client({ apiKey, baseUrl: api.baseUrl });

  const given = await client.listings.create({ amazonUrl }, { idempotencyKey: "order-17" });
  const first = await client.listings.create({ amazonUrl });
  const second = await client.listings.create({ amazonUrl });

  assert.equal(given.idempotencyKey, "order-17");
  assert.deepEqual(
    api.requests.map((r) => r.headers["idempotency-key"]),
    ["order-17", first.idempotencyKey, second.idempotencyKey],
  );
  assert.notEqual(first.idempotencyKey, second.idempotencyKey);
});

test("retrieve reads one listing by its id, escaped in the path", async (t) => {
  const api = await fakeApi(t, [{ body: { ...listing, idempotencyKey: "k", requestId: "r" } }]);
  const client = new Client({ apiKey, baseUrl: api.baseUrl });

  const got = await client.listings.retrieve("a/b c");

  assert.equal(api.requests[0].method, "GET");
  assert.equal(api.requests[0].url, "/v1/listings/a%2Fb%20c");
  assert.equal(api.requests[0].headers["idempotency-key"], undefined);
  assert.deepEqual(got, { ...listing, idempotencyKey: "k", requestId: "r" });
});

test("an empty idempotencyKey is refused before anything is sent", async (t) => {
  const api = await fakeApi(t, [{ status: 201, body: listing }]);
  const client = new Client({ apiKey, baseUrl: api.baseUrl });

  await assert.rejects(client.listings.create({ amazonUrl }, { idempotencyKey: "" }), TypeError);
  await assert.rejects(client.veroChecks.create({ brand: "x" }, { idempotencyKey: "" }), TypeError);

  assert.equal(api.requests.length, 0);
});
