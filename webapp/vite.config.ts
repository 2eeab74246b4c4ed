import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import { configDefaults } from 'vitest/config';
import { firstPaintChunks } from './scripts/first-paint-chunks';
import { compression } from 'vite-plugin-compression2';
import { paths } from './src/config/paths';

// Tests format dates; pin the zone so they read the same on every machine.
process.env.TZ ??= 'UTC';

// X-Forwarded-For names the browser's address, so the server's loopback-only
// development routes stay closed to other machines when the dev server is
// exposed (vite --host).
const backend = { target: process.env.API_URL ?? 'http://localhost:8080', xfwd: true };

// dist/routes.json: every route of the webapp, one segment of a parameter
// written `*`, so that the server answers 404 (with the app's not-found
// screen) for a path no route matches, without a second list to keep.
function routesManifest(): Plugin {
  const routes = Object.values(paths).map((p) => (typeof p === 'function' ? p('*') : p));
  return {
    name: 'a2e-routes-manifest',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'routes.json', source: JSON.stringify(routes) });
    },
  };
}

// The page module of each route the server preloads (router.tsx's lazy
// imports), and whether it is shown signed in only (inside the app's layout).
const layoutModule = 'src/app/layouts/app-layout.tsx';
const routeModules: Record<string, { module: string; signedIn?: boolean }> = {
  [paths.home]: { module: 'src/app/routes/landing.tsx' },
  [paths.login]: { module: 'src/app/routes/auth/login.tsx' },
  [paths.register]: { module: 'src/app/routes/auth/register.tsx' },
  [paths.dashboard]: { module: 'src/app/routes/app/dashboard.tsx', signedIn: true },
  [paths.subscription]: { module: 'src/app/routes/app/subscription.tsx', signedIn: true },
  [paths.apiKeys]: { module: 'src/app/routes/app/api-keys.tsx', signedIn: true },
  [paths.tutorials]: { module: 'src/app/routes/app/tutorials.tsx', signedIn: true },
  [paths.download]: { module: 'src/app/routes/app/download.tsx', signedIn: true },
  [paths.support]: { module: 'src/app/routes/app/support.tsx', signedIn: true },
  [paths.transactions]: { module: 'src/app/routes/app/transactions.tsx', signedIn: true },
  [paths.webhooks]: { module: 'src/app/routes/app/webhooks.tsx', signedIn: true },
  [paths.checkout]: { module: 'src/app/routes/app/checkout.tsx', signedIn: true },
};

// dist/preload.json: for each route above, the chunks of its page (and of
// the layout, signed in) with their CSS, so that bin/api names them in the
// HTML answer (<link rel="modulepreload">) and the browser fetches them
// with the entry chunk instead of after it has run (issue 38 item 2); their
// own imports follow as soon as they arrive. Not every shared chunk they
// import: thirty small requests ahead of the first paint cost Lighthouse's
// mobile run more than the chain they save (webapp/README.md, Performance).
function preloadManifest(): Plugin {
  return {
    name: 'a2e-preload-manifest',
    apply: 'build',
    generateBundle(_, bundle) {
      // A module's chunk: its own (a lazy route's facade) or the group that
      // holds it (scripts/first-paint-chunks.ts), with the group chunks that
      // one imports (the `shared` chunk), never the entry chunk's imports.
      const chunks = Object.values(bundle).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const entryChunk = chunks.find((c) => c.isEntry);
      const groupChunk = (c: Rollup.OutputChunk) => c.name === 'shared' || c.name === 'signed-in';
      const files = (module: string) => {
        const id = fileURLToPath(new URL(module, import.meta.url));
        const c = chunks.find((o) => o.facadeModuleId === id) ?? chunks.find((o) => o.moduleIds.includes(id));
        if (!c) this.error(`preload manifest: no chunk for ${module} (is it still a lazy route in router.tsx?)`);
        const withGroups = [c, ...c.imports.map((f) => byName.get(f)!).filter((i) => groupChunk(i) && !entryChunk?.imports.includes(i.fileName))];
        return withGroups.flatMap((o) => [o.fileName, ...(o.viteMetadata?.importedCss ?? [])]).map((f) => `/${f}`);
      };
      const out: Record<string, { signedIn: boolean; files: string[] }> = {};
      for (const [route, { module, signedIn = false }] of Object.entries(routeModules)) {
        out[route] = { signedIn, files: [...new Set(signedIn ? [...files(layoutModule), ...files(module)] : files(module))] };
      }
      this.emitFile({ type: 'asset', fileName: 'preload.json', source: JSON.stringify(out) });
    },
  };
}

// The test files that vi.mock a module or call vi.resetModules, found by
// reading them: in a shared module graph their mocks would reach the files
// after them in the worker, and a module an earlier file imported would
// escape their mocks.
const srcDir = fileURLToPath(new URL('./src', import.meta.url));
const isolatedTests = readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.test\.tsx?$/.test(f) && /\bvi\.(mock|doMock|resetModules)\(/.test(readFileSync(join(srcDir, f), 'utf8')))
  .map((f) => `src/${f.split(sep).join('/')}`);

export default defineConfig({
  // Brotli and gzip copies beside each text asset (file.js.br, file.js.gz),
  // made once at build time; bin/api serves the one the browser accepts.
  plugins: [react(), routesManifest(), preloadManifest(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/api': backend,
      '/v1': backend,
      '/healthz': backend,
    },
  },
  build: {
    outDir: 'dist',
    // Vite writes .vite/manifest.json; scripts/check-size.mjs reads it to
    // find the chunks loaded on first paint.
    manifest: true,
    // The signed-in dashboard's first paint in two chunks instead of thirty
    // (scripts/first-paint-chunks.ts, issue 38).
    rolldownOptions: { output: { codeSplitting: firstPaintChunks({ entry: 'src/main.tsx', landing: routeModules[paths.home].module, signedIn: [layoutModule, routeModules[paths.dashboard].module] }) } },
  },
  test: {
    // happy-dom and worker threads: the same 45 tests of six files took 34 s
    // of CPU against 53-57 s in jsdom with forked workers (Vitest's
    // defaults), 50 s in jsdom with threads (load 10-15, issue 37 item 9).
    environment: 'happy-dom',
    pool: 'threads',
    // A worker per core, not Vitest's cores - 1: on two cores the same six
    // files took 21 s against 30-33 s with one worker, the same CPU (load
    // 6); in make check the second core is free once the Go lane is done.
    maxWorkers: '100%',
    globals: true,
    setupFiles: ['./src/testing/setup.ts'],
    css: false,
    restoreMocks: true,
    // The route tests render whole screens: 5 s (the default) is
    // too short on a loaded two-core machine, where they time out without
    // failing what they assert.
    testTimeout: 20_000,
    // A global a test stubs (installFakeApi's fetch) is put back after it,
    // so the next test, in this file or the next one in the worker, starts
    // with none of its calls.
    unstubGlobals: true,
    // Two projects in one run. The files that vi.mock a module (or reset
    // the module registry) get a fresh module graph each, as by default;
    // every other file shares its worker's (isolate: false), so the app's
    // modules and the route chunks are evaluated once a worker instead of
    // once a file; setup.ts, run before each file, puts back the page state
    // a file could leave behind.
    projects: [
      { extends: true, test: { name: 'shared', isolate: false, exclude: [...configDefaults.exclude, ...isolatedTests] } },
      { extends: true, test: { name: 'isolated', include: isolatedTests } },
    ],
  },
});
