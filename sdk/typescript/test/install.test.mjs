// The package ships its built files: installed with --ignore-scripts (no prepare, no build), as from a
// fresh clone of the repository, it imports. And the dist/ committed is the build of src/.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const pkgDir = dirname(dirname(fileURLToPath(import.meta.url)));
const git = (...args) => execFileSync("git", args, { cwd: pkgDir, encoding: "utf8" });
const npm = (cwd, ...args) => execFileSync("npm", [...args, "--no-audit", "--no-fund"], { cwd, encoding: "utf8", stdio: "pipe" });

/** Whether the SDK is in a git work tree (the test reads what the repository holds). */
function inGit() {
  try {
    return git("rev-parse", "--is-inside-work-tree").trim() === "true";
  } catch {
    return false;
  }
}

test("the repository holds dist/, the build of src/ (npm test just built it: commit dist/ with src/)", { skip: !inGit() && "not a git work tree" }, () => {
  const tracked = git("ls-files", "dist").split("\n").filter(Boolean).map((p) => p.replace(/^dist\//, ""));
  const built = readdirSync(join(pkgDir, "dist")).sort();
  assert.deepEqual(tracked.sort(), built, "every built file is in the repository (git add sdk/typescript/dist)");
  for (const file of built) {
    assert.equal(git("show", `:./dist/${file}`), readFileSync(join(pkgDir, "dist", file), "utf8"), `dist/${file} is stale: git add it`);
  }
});

test("installed with --ignore-scripts from the repository's files, the package imports", { skip: !inGit() && "not a git work tree", timeout: 120_000 }, (t) => {
  const tmp = mkdtempSync(join(tmpdir(), "a2e-sdk-install-"));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  // The package as a fresh clone has it (the index: what a commit would hold), without node_modules.
  const files = git("ls-files", "-z", ".");
  execFileSync("git", ["checkout-index", "--stdin", "-z", `--prefix=${tmp}/clone/`], { cwd: pkgDir, input: files });
  const clone = join(tmp, "clone", git("rev-parse", "--show-prefix").trim());
  const tarball = npm(clone, "pack", "--ignore-scripts", "--pack-destination", tmp).trim().split("\n").pop();

  const app = join(tmp, "app");
  execFileSync("mkdir", ["-p", app]);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  npm(app, "install", "--ignore-scripts", "--offline", join(tmp, tarball));
  const out = execFileSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { Client, VERSION } from "@a2e-automation/sdk";
       const c = new Client({ apiKey: "k", baseUrl: "https://api.example.com" });
       console.log(typeof c.listings.listAll, typeof c.veroChecks.create, VERSION);`,
    ],
    { cwd: app, encoding: "utf8" },
  );
  const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  assert.equal(out.trim(), `function function ${pkg.version}`);
});
