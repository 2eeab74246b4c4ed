// Fails the build when the JavaScript loaded on first paint (the entry chunk
// and its static imports) is larger than the budget as it goes over the
// wire: the brotli copies the build wrote beside each chunk (vite.config.ts),
// which bin/api serves to every browser that accepts br. A chunk without its
// copy would go uncompressed, so it counts at its full size.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const BUDGET_BYTES = 250 * 1024;
const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
if (entries.length === 0) {
  console.error('check-size: no entry chunk in dist/.vite/manifest.json');
  process.exit(1);
}

const initial = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || initial.has(chunk.file)) return;
  initial.add(chunk.file);
  for (const imported of chunk.imports ?? []) visit(imported);
};
for (const [key] of entries) visit(key);

let total = 0;
for (const file of initial) {
  const br = join(dist, `${file}.br`);
  const size = statSync(existsSync(br) ? br : join(dist, file)).size;
  total += size;
  console.log(`  ${file}  ${(size / 1024).toFixed(1)} KB on the wire${existsSync(br) ? ' (br)' : ' (uncompressed: no .br copy)'}`);
}
const summary = `initial JS: ${(total / 1024).toFixed(1)} KB on the wire (budget ${BUDGET_BYTES / 1024} KB)`;
if (total > BUDGET_BYTES) {
  console.error(`check-size: FAIL ${summary}`);
  process.exit(1);
}
console.log(`check-size: ok ${summary}`);
