// verifyWebhook: the vectors every SDK shares, the clock, and a receiver over real HTTP.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { test } from "node:test";

import {
  A2EError,
  verifyWebhook,
  WebhookHeaderError,
  WebhookPayloadError,
  WebhookSignatureError,
  WebhookTimestampError,
  WebhookVerificationError,
} from "../dist/index.js";

const kinds = {
  signature_mismatch: WebhookSignatureError,
  timestamp_outside_tolerance: WebhookTimestampError,
  malformed_header: WebhookHeaderError,
  malformed_payload: WebhookPayloadError,
};

const sign = (secret, t, body) => `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;

test("verifyWebhook follows the vectors every SDK shares", () => {
  const { vectors } = JSON.parse(readFileSync(new URL("../../conformance/webhook-vectors.json", import.meta.url), "utf8"));
  assert.ok(vectors.length > 0);
  for (const v of vectors) {
    for (const payload of [v.payload, new TextEncoder().encode(v.payload)]) {
      const what = `${v.name} (${typeof payload})`;
      if (v.event) {
        assert.deepEqual(verifyWebhook(payload, v.header, v.secret, v.tolerance, v.now), v.event, what);
        continue;
      }
      assert.throws(
        () => verifyWebhook(payload, v.header, v.secret, v.tolerance, v.now),
        (e) => {
          assert.ok(e instanceof kinds[v.error], `${what}: ${e?.name} ${e?.message}`);
          assert.ok(e instanceof WebhookVerificationError && e instanceof A2EError, what);
          assert.equal(e.code, v.error, what);
          assert.ok(!e.message.includes(v.secret), `${what}: the message shows the secret`);
          return true;
        },
        what,
      );
    }
  }
});

test("verifyWebhook checks the time against the clock, 300 s by default", () => {
  const secret = "whsec_clock";
  const body = '{"id":"e1","type":"balance.low","createdAt":"2026-01-02T03:04:05Z","data":{"creditsAvailable":3}}';
  const now = Math.floor(Date.now() / 1000);
  assert.equal(verifyWebhook(body, sign(secret, now - 10, body), secret).type, "balance.low");
  assert.equal(verifyWebhook(body, sign(secret, now - 290, body), secret).id, "e1");
  assert.throws(() => verifyWebhook(body, sign(secret, now - 400, body), secret), WebhookTimestampError);
  assert.equal(verifyWebhook(body, sign(secret, now - 400, body), secret, 600).id, "e1");
  assert.throws(() => verifyWebhook(body, undefined, secret), WebhookHeaderError);
  assert.throws(() => verifyWebhook(body, sign(secret, now, body), ""), TypeError);
  assert.throws(() => verifyWebhook(body, sign(secret, now, body), secret, 0), TypeError);
});

test("a receiver over HTTP verifies the raw body and refuses a changed one", async (t) => {
  const secret = "whsec_receiver";
  const events = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      try {
        events.push(verifyWebhook(Buffer.concat(chunks), req.headers["a2e-signature"], secret));
        res.end();
      } catch (e) {
        res.statusCode = e instanceof WebhookVerificationError ? 400 : 500;
        res.end();
      }
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => server.close());
  const url = `http://127.0.0.1:${server.address().port}/`;
  const body = '{"id":"e2","type":"credits.granted","createdAt":"2026-01-02T03:04:05Z","data":{"credits":100,"note":"für"}}';
  const header = sign(secret, Math.floor(Date.now() / 1000), body);
  const post = (b) => fetch(url, { method: "POST", body: b, headers: { "A2E-Signature": header } });
  assert.equal((await post(body)).status, 200);
  assert.equal((await post(body.replace("100", "900"))).status, 400);
  assert.deepEqual(events, [JSON.parse(body)]);
});
