// The case-driven fake API: for one step of sdk/conformance/cases.json it answers what the case says the real
// server answers (the step's `expect`, its `arrange` before it), and records what the SDK sent, so the SDK's
// behaviour on the cases is tested without bin/api. A behaviour change is one edit to cases.json.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

export const cases = JSON.parse(readFileSync(new URL("../../conformance/cases.json", import.meta.url), "utf8")).cases;

/** The arranged failure's Retry-After: short, so that riding it out is quick. */
const arrangedRetryAfter = "0.05";

/** `${name}` replaced by vars[name] in every string of value. */
export function substitute(value, vars) {
  if (typeof value === "string") {
    const whole = /^\$\{(\w+)\}$/.exec(value);
    if (whole) {
      return vars[whole[1]];
    }
    return value.replace(/\$\{(\w+)\}/g, (_, name) => String(vars[name]));
  }
  if (Array.isArray(value)) {
    return value.map((v) => substitute(v, vars));
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, vars)]));
  }
  return value;
}

/** An answer's value for an expectation: "<string>" a fresh string, "<positive>" 1. */
function materialize(value) {
  if (value === "<string>") {
    return randomUUID();
  }
  if (value === "<positive>") {
    return 1;
  }
  if (Array.isArray(value)) {
    return value.map(materialize);
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, materialize(v)]));
  }
  return value;
}

/** Whether actual holds what expect names (sdk/conformance/README.md's rules); the first difference, else null. */
export function mismatch(expect, actual, path = "") {
  if (expect === null) {
    return actual === null || actual === undefined ? null : `${path}: want null, got ${JSON.stringify(actual)}`;
  }
  if (expect === "<string>") {
    return typeof actual === "string" && actual !== "" ? null : `${path}: want a string, got ${JSON.stringify(actual)}`;
  }
  if (expect === "<positive>") {
    return typeof actual === "number" && actual > 0 ? null : `${path}: want a positive number, got ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expect)) {
    if (!Array.isArray(actual) || actual.length !== expect.length) {
      return `${path}: want ${expect.length} items, got ${JSON.stringify(actual)}`;
    }
    for (let i = 0; i < expect.length; i++) {
      const m = mismatch(expect[i], actual[i], `${path}[${i}]`);
      if (m) return m;
    }
    return null;
  }
  if (typeof expect === "object") {
    if (actual === null || typeof actual !== "object") {
      return `${path}: want an object, got ${JSON.stringify(actual)}`;
    }
    for (const [k, v] of Object.entries(expect)) {
      const m = mismatch(v, actual[k], `${path}.${k}`);
      if (m) return m;
    }
    return null;
  }
  return expect === actual ? null : `${path}: want ${JSON.stringify(expect)}, got ${JSON.stringify(actual)}`;
}

/** The value at a dotted path such as "result.nextCursor". */
export function at(line, path) {
  return path.split(".").reduce((v, k) => (v == null ? undefined : v[k]), line);
}

const rateLimitHeaders = () => ({
  "X-RateLimit-Limit": "20",
  "X-RateLimit-Remaining": "19",
  "X-RateLimit-Reset": String(Math.floor(Date.now() / 1000) + 60),
});

function errorAnswer(status, code, { retryAfter = null, requestId = randomUUID(), message = `${code} message`, extra = {} } = {}) {
  const headers = { "X-Request-ID": requestId };
  if (retryAfter !== null) {
    headers["Retry-After"] = String(retryAfter);
  }
  return { status, headers, body: { code, message, requestId, ...extra } };
}

/** The error answer the step's expected error is the SDK's reading of. */
function expectedErrorAnswer(error) {
  const e = materialize(error);
  const extra = {};
  if (e.creditsRemaining !== undefined && e.creditsRemaining !== null) {
    extra.creditsRemaining = e.creditsRemaining;
  }
  if (e.spendLimit) {
    Object.assign(extra, e.spendLimit);
  }
  return errorAnswer(e.status, e.code, {
    retryAfter: e.retryAfter ?? (e.status === 503 || e.status === 429 ? arrangedRetryAfter : null),
    requestId: e.requestId ?? randomUUID(),
    message: e.message ?? `${e.code} message`,
    extra,
  });
}

const asinOf = (url) => /\/dp\/(\w+)/.exec(url ?? "")?.[1] ?? "B000000000";

function listingOf(fields, op = {}) {
  fields ??= {};
  return {
    id: randomUUID(),
    asin: asinOf(fields.amazonUrl ?? op.amazonUrl),
    amazonUrl: op.amazonUrl ?? "https://www.amazon.com/dp/B000000000",
    status: "queued",
    createdAt: new Date().toISOString(),
    ...materialize(fields),
  };
}

/** The request each op makes: method, path and the query it must carry. */
function requestOf(op) {
  switch (op.op) {
    case "create":
      return { method: "POST", path: "/v1/listings", body: { amazonUrl: op.amazonUrl } };
    case "veroCheck":
      return { method: "POST", path: "/v1/vero-checks", body: { brand: op.brand } };
    case "retrieve":
      return { method: "GET", path: `/v1/listings/${encodeURIComponent(op.id)}` };
    case "list":
      return { method: "GET", path: "/v1/listings", query: { limit: op.limit, cursor: op.cursor, idempotencyKey: op.idempotencyKey } };
    case "listAll":
      return { method: "GET", path: "/v1/listings", query: { limit: op.limit } };
    case "findByIdempotencyKey":
      return { method: "GET", path: "/v1/listings", query: { idempotencyKey: op.idempotencyKey } };
    case "account":
      return { method: "GET", path: "/v1/account" };
    default:
      throw new Error(`no request for op ${op.op}`);
  }
}

/**
 * The plan of one step: how the fake answers each request the step's op makes. `op` and `expect` have the
 * case's variables substituted; `vars` gives `email`.
 */
export function planOf(step, op, expect, vars) {
  const request = requestOf(op);
  const arrange = step.arrange ?? null;
  let final;
  let pages = null;
  if (expect.ok) {
    const r = "result" in expect ? expect.result : {};
    const status = request.method === "POST" ? 201 : 200;
    switch (op.op) {
      case "create":
      case "retrieve":
        final = { status, body: listingOf(r, op) };
        break;
      case "veroCheck":
        final = {
          status,
          body: { id: randomUUID(), brand: op.brand.trim().replace(/\s+/g, " "), protected: false, creditsRemaining: 0, ...materialize(r) },
        };
        break;
      case "list":
        final = { status, body: { data: (r.data ?? []).map((l) => listingOf(l)), nextCursor: materialize(r.nextCursor ?? null) } };
        break;
      case "findByIdempotencyKey":
        final = { status, body: { data: r === null ? [] : [listingOf(r)], nextCursor: null } };
        break;
      case "listAll": {
        const data = r.data.map((l) => listingOf(l));
        pages = [];
        for (let i = 0; i < data.length; i += op.limit) {
          pages.push(data.slice(i, i + op.limit));
        }
        final = { status, body: {} };
        break;
      }
      case "account":
        final = {
          status,
          body: {
            email: vars.email,
            creditsAvailable: 0,
            subscriptionStatus: "inactive",
            spendingFrozen: false,
            creditDebt: 0,
            monthlyCredits: 0,
            monthlyCreditsExpireAt: null,
            purchasedCredits: 0,
            otherCredits: 0,
            ...materialize(r),
          },
        };
        break;
    }
    final.headers = rateLimitHeaders();
  } else if (expect.error.status === null || expect.error.status === undefined) {
    final = { status: 599, headers: {}, body: {} }; // no HTTP answer (noServer): never served
  } else {
    final = expectedErrorAnswer(expect.error);
  }
  // What the arranged failure answers the first attempt, when the step still succeeds.
  const arranged = {
    rateLimited: () => errorAnswer(429, "rate_limited", { retryAfter: arrangedRetryAfter }),
    databaseDown: () => errorAnswer(503, "service_unavailable", { retryAfter: arrangedRetryAfter }),
    commitCut: () => errorAnswer(503, "commit_outcome_unknown", { retryAfter: arrangedRetryAfter }),
    commitLost: () => errorAnswer(503, "commit_outcome_unknown", { retryAfter: arrangedRetryAfter }),
  }[arrange];
  const commit = arrange === "commitCut" || arrange === "commitLost";
  return {
    op,
    request,
    arrange,
    noServer: arrange === "noServer",
    unknownKey: arrange === "unknownKey",
    /** The answer to the n-th request of the op (n from 0) and the request itself. */
    answer(n, req, url) {
      if (commit && req.method === "GET") {
        // The read-back by key after the last attempt: the cut COMMIT committed, the lost one did not.
        const idempotencyKey = url.searchParams.get("idempotencyKey");
        const found = arrange === "commitCut" ? [{ ...(expect.ok ? final.body : listingOf({}, op)), idempotencyKey }] : [];
        return { status: 200, headers: rateLimitHeaders(), body: { data: found, nextCursor: null } };
      }
      if (arranged && n === 0) {
        return expect.ok ? arranged() : final;
      }
      if (pages) {
        const i = Number(url.searchParams.get("cursor") ?? 0);
        return { status: 200, headers: {}, body: { data: pages[i], nextCursor: i + 1 < pages.length ? String(i + 1) : null } };
      }
      return final;
    },
  };
}

/** Starts the fake; `fake.plan` is the step it answers. Closed when the test ends. */
export async function caseFake(t) {
  const fake = { plan: null, requests: [] };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const url = new URL(req.url, "http://fake");
      const recorded = { method: req.method, url: req.url, headers: req.headers, body };
      fake.requests.push(recorded);
      const ofOp = fake.requests.filter((r) => r.method === fake.plan.request.method).length - 1;
      const answer = fake.plan.answer(ofOp, recorded, url);
      recorded.answer = answer;
      res.writeHead(answer.status, { "Content-Type": "application/json", ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  fake.baseUrl = `http://127.0.0.1:${server.address().port}`;
  return fake;
}

/**
 * What the requests of one step broke of the protocol (sdk/conformance/README.md), else null: each request is
 * the op's, with the API key; every retry of a POST has the first attempt's key and bytes; at most maxRetries
 * retries; a read-back (one GET by the key) only after a commit_outcome_unknown.
 */
export function requestsMismatch(plan, requests, apiKey, maxRetries = 3) {
  const { request, op } = plan;
  const attempts = requests.filter((r) => r.method === request.method);
  if (attempts.length === 0 || (op.op !== "listAll" && attempts.length > maxRetries + 1)) {
    return `${attempts.length} attempts of ${request.method}, maxRetries ${maxRetries}`;
  }
  for (const r of requests) {
    if (r.headers["x-api-key"] !== apiKey) {
      return `${r.method} ${r.url} without the API key`;
    }
  }
  for (const r of attempts) {
    const url = new URL(r.url, "http://fake");
    if (url.pathname !== request.path) {
      return `${r.method} ${r.url}, want ${request.path}`;
    }
    for (const [k, v] of Object.entries(request.query ?? {})) {
      if (v !== undefined && url.searchParams.get(k) !== String(v)) {
        return `${r.url}: want ${k}=${v}`;
      }
      if (v === undefined && op.op === "list" && url.searchParams.has(k)) {
        return `${r.url}: ${k} sent, not given`;
      }
    }
    if (request.body) {
      if (JSON.stringify(JSON.parse(r.body)) !== JSON.stringify(request.body)) {
        return `${r.url}: body ${r.body}, want ${JSON.stringify(request.body)}`;
      }
      const key = attempts[0].headers["idempotency-key"];
      if (!key || (op.idempotencyKey !== undefined && key !== op.idempotencyKey)) {
        return `Idempotency-Key ${key}, want ${op.idempotencyKey ?? "a fresh one"}`;
      }
      if (r.headers["idempotency-key"] !== key || r.body !== attempts[0].body) {
        return "a retry without the first attempt's key and bytes";
      }
    }
  }
  const last = attempts[attempts.length - 1].answer;
  const retryable = (a) => a.status === 429 || a.status >= 500;
  if (op.op !== "listAll" && attempts.slice(0, -1).some((r) => !retryable(r.answer))) {
    return "retried after an answer that a retry cannot fix";
  }
  const others = requests.filter((r) => r.method !== request.method);
  if (others.length > 0) {
    const unknown = last.body?.code === "commit_outcome_unknown";
    const readBack = others.length === 1 && unknown && others[0].method === "GET";
    const url = readBack && new URL(others[0].url, "http://fake");
    if (!readBack || url.pathname !== "/v1/listings" || url.searchParams.get("idempotencyKey") !== attempts[0].headers["idempotency-key"]) {
      return `unexpected ${others.map((r) => `${r.method} ${r.url}`).join(", ")}`;
    }
  }
  return null;
}
