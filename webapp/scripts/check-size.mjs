// Fails the build when the code a page needs for its first paint is larger
// than its budget as it goes over the wire: the brotli copies the build
// wrote beside each file (vite.config.ts), which bin/api serves to every
// browser that accepts br. A file without its copy would go uncompressed,
// so it counts at its full size.
//
// Measured: the entry chunk and its static imports (every page), and, for
// the landing page and the dashboard (issue 38's two pages), the files
// dist/preload.json names for the route (what bin/api preloads with the
// page) with their static imports and the style sheets of all of them.
// Chunks a page loads after its first paint (the dashboard's deferred
// cards, the account menu) are not counted.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const KB = 1024;
// Issue 38, 2026-11-27: entry 80.2 KB, landing 91.6 KB, dashboard 96.9 KB
// (before: see webapp/README.md, Performance). A few KB left for growth.
const budgets = { entry: 85 * KB, '/': 95 * KB, '/dashboard': 100 * KB };

const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const preload = JSON.parse(readFileSync(join(dist, 'preload.json'), 'utf8'));
const byFile = new Map(Object.values(manifest).map((chunk) => [chunk.file, chunk]));

const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
if (entries.length === 0) {
  console.error('check-size: no entry chunk in dist/.vite/manifest.json');
  process.exit(1);
}

/** The files of these chunks and of their static imports, style sheets included. */
function closure(chunks) {
  const files = new Set();
  const visit = (chunk) => {
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(manifest[imported]);
  };
  chunks.forEach(visit);
  return files;
}

function wire(file) {
  const br = join(dist, `${file}.br`);
  return { size: statSync(existsSync(br) ? br : join(dist, file)).size, br: existsSync(br) };
}

let failed = false;
function check(name, files) {
  let total = 0;
  for (const file of [...files].sort()) {
    const { size, br } = wire(file);
    total += size;
    console.log(`  ${name}  ${file}  ${(size / KB).toFixed(1)} KB on the wire${br ? ' (br)' : ' (uncompressed: no .br copy)'}`);
  }
  const budget = budgets[name];
  const summary = `${name}: ${files.size} files, ${(total / KB).toFixed(1)} KB on the wire (budget ${budget / KB} KB)`;
  if (total > budget) {
    failed = true;
    console.error(`check-size: FAIL ${summary}`);
  } else {
    console.log(`check-size: ok ${summary}`);
  }
}

const entryChunks = entries.map(([, chunk]) => chunk);
const entryFiles = closure(entryChunks);
check('entry', new Set([...entryFiles].filter((f) => f.endsWith('.js'))));
for (const route of ['/', '/dashboard']) {
  const named = preload[route]?.files ?? [];
  if (named.length === 0) {
    console.error(`check-size: dist/preload.json names nothing for ${route}`);
    process.exit(1);
  }
  const chunks = named.map((f) => byFile.get(f.replace(/^\//, ''))).filter(Boolean);
  const cssOnly = named.map((f) => f.replace(/^\//, '')).filter((f) => !byFile.has(f));
  check(route, new Set([...closure([...entryChunks, ...chunks]), ...cssOnly]));
}
if (failed) process.exit(1);
