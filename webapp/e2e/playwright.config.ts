import { defineConfig } from '@playwright/test';

/**
 * Browser journeys against the real API server and PostgreSQL (see
 * harness.ts), driven through Debian's Chromium: Playwright cannot download
 * a browser on this project's machines (scripts/ensure-chromium.sh installs
 * the system one).
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  // The Lighthouse check (issue 38) runs in make e2e, after every journey
  // file has finished, so that nothing else runs beside it even with
  // E2E_WORKERS=2: the simulated throttling scales the CPU time Chromium
  // really spent. `make lighthouse` runs it alone (--project=lighthouse
  // --no-deps).
  //
  // Inside the journeys a test that needs no other test's state stands on
  // its own (fullyParallel): with E2E_WORKERS=2 the two workers share out
  // the single tests too, not only whole files. What one seller does step
  // by step is a test.describe.serial block, which stays together, in
  // order, on one worker. With one worker the order is the files' order.
  projects: [
    { name: 'journeys', testIgnore: ['lighthouse.e2e.ts'], fullyParallel: true },
    { name: 'lighthouse', testMatch: 'lighthouse.e2e.ts', dependencies: ['journeys'] },
  ],
  // Traces and failure screenshots; the page screenshots the journeys take
  // go to test-results/screenshots (support.ts).
  outputDir: '../test-results/playwright',
  globalSetup: './global-setup.ts',
  // One browser at a time by default (CI's timings were measured so);
  // E2E_WORKERS=2 (make test outside CI: scripts/test.sh) runs two at once
  // (the tests share the server but not their accounts).
  workers: Number(process.env.E2E_WORKERS ?? 1),
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['./summary-reporter.ts']],
  use: {
    // Set by global-setup.ts before the workers start.
    baseURL: process.env.E2E_BASE_URL,
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // Without the background-networking flags Chromium keeps calling out
      // to a network it cannot reach.
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
