// sdk/conformance/cases.json run through the runner's operation (conformance/operations.mjs, in process) against
// the case-driven fake (cases-fake.mjs): each case's steps, answered as the case says the server answers, the
// line checked against `expect` and the requests against the protocol. test/sdk runs the same cases against the
// real bin/api through conformance/runner.mjs; the last test here runs that runner once.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { test } from "node:test";

import { perform } from "../conformance/operations.mjs";
import { at, caseFake, cases, mismatch, planOf, requestsMismatch, substitute } from "./cases-fake.mjs";

const runner = new URL("../conformance/runner.mjs", import.meta.url).pathname;
const apiKey = "ak_test_cases_secret";

/** Runs the runner once: its exit status, standard output and error. */
function run(op, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [runner], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(JSON.stringify(op));
  });
}

/** One step as the runner performs it: its line's text, or the process's output with viaProcess. */
async function runStep(op, { apiKey: key, baseUrl }, viaProcess) {
  if (!viaProcess) {
    return { code: 0, stdout: `${await perform(op, { apiKey: key, baseUrl })}\n`, stderr: "" };
  }
  return run(op, { A2E_BASE_URL: baseUrl, A2E_API_KEY: key });
}

/** Runs case c's steps against a new fake. */
async function runCase(t, c, viaProcess = false) {
  const fake = await caseFake(t);
  const vars = { key: `key-${randomUUID()}`, email: "seller@example.com", otherListingId: randomUUID() };
  for (const [i, step] of c.steps.entries()) {
    const op = substitute(step.op, vars);
    const expect = substitute(step.expect, vars);
    const plan = planOf(step, op, expect, vars);
    fake.plan = plan;
    fake.requests = [];
    const key = plan.unknownKey ? "ak_test_of_no_account" : apiKey;
    const baseUrl = plan.noServer ? "http://127.0.0.1:9" : fake.baseUrl;
    const started = Date.now();
    const { code, stdout, stderr } = await runStep(op, { apiKey: key, baseUrl }, viaProcess);
    const where = `step ${i} ${JSON.stringify(op)}: ${stdout}${stderr}`;
    assert.equal(code, 0, where);
    const lines = stdout.trim().split("\n");
    assert.equal(lines.length, 1, where);
    assert.ok(!stdout.includes(key) && !stderr.includes(key), `the API key printed: ${where}`);
    const line = JSON.parse(lines[0]);
    assert.equal(mismatch(expect, line), null, where);
    if (!line.ok) {
      for (const field of ["class", "code", "status", "requestId", "message", "idempotencyKey", "retryAfter", "outcomeUnknown", "creditsRemaining", "spendLimit"]) {
        assert.ok(field in line.error, `error.${field} missing: ${where}`);
      }
    }
    if (step.withinSeconds) {
      assert.ok(Date.now() - started <= step.withinSeconds * 1000, `took longer than ${step.withinSeconds} s: ${where}`);
    }
    if (!plan.noServer) {
      assert.equal(requestsMismatch(plan, fake.requests, key, op.maxRetries ?? 3), null, where);
    }
    for (const [name, path] of Object.entries(step.save ?? {})) {
      vars[name] = at(line, path);
    }
  }
}

for (const c of cases) {
  test(`case: ${c.name}`, (t) => runCase(t, c));
}

test("the runner reads the op from standard input and prints the one line (the cases with an error and a retry)", async (t) => {
  for (const name of ["a key reused with another request is IdempotencyError", "503 while PostgreSQL is down is ridden out, charged once"]) {
    await runCase(t, cases.find((c) => c.name === name), true);
  }
});
