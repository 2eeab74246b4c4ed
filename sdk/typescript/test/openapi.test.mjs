// src/openapi.ts, the types the SDK's models are made of, is what openapi-typescript generates from the
// API's OpenAPI document (cmd/api/openapi.json): after a change of the document, `npm run generate`,
// `npm run build`, and commit src/openapi.ts and dist/ with it.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const pkgDir = dirname(dirname(fileURLToPath(import.meta.url)));
const documentPath = join(pkgDir, "..", "..", "cmd", "api", "openapi.json");

test("src/openapi.ts is generated from the OpenAPI document (npm run generate)", { skip: !existsSync(documentPath) && "no cmd/api/openapi.json here" }, (t) => {
  const tmp = mkdtempSync(join(tmpdir(), "a2e-openapi-"));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const out = join(tmp, "openapi.ts");
  execFileSync(join(pkgDir, "node_modules", ".bin", "openapi-typescript"), [documentPath, "-o", out], { stdio: "pipe" });
  assert.ok(
    readFileSync(out, "utf8") === readFileSync(join(pkgDir, "src", "openapi.ts"), "utf8"),
    "src/openapi.ts is stale: run npm run generate --prefix sdk/typescript, then npm run build, and commit both",
  );
});
