/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
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

export default defineConfig({
  // Brotli and gzip copies beside each text asset (file.js.br, file.js.gz),
  // made once at build time; bin/api serves the one the browser accepts.
  plugins: [react(), routesManifest(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
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
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup.ts'],
    css: false,
    restoreMocks: true,
    // The route tests render whole screens in jsdom: 5 s (the default) is
    // too short on a loaded two-core machine, where they time out without
    // failing what they assert.
    testTimeout: 20_000,
  },
});
