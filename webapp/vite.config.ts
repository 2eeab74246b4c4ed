/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Tests format dates; pin the zone so they read the same on every machine.
process.env.TZ ??= 'UTC';

// X-Forwarded-For names the browser's address, so the server's loopback-only
// development routes stay closed to other machines when the dev server is
// exposed (vite --host).
const backend = { target: process.env.API_URL ?? 'http://localhost:8080', xfwd: true };

export default defineConfig({
  plugins: [react()],
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
