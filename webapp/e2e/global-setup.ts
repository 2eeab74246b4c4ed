import type { FullConfig } from '@playwright/test';
import { startHarness } from './harness.ts';

/**
 * Starts the real server on a fresh database and hands its address to the
 * workers through E2E_BASE_URL, its database through E2E_DATABASE_URL. The
 * returned function stops it.
 */
export default async function globalSetup(_config: FullConfig) {
  const harness = await startHarness();
  process.env.E2E_BASE_URL = harness.baseURL;
  process.env.E2E_DATABASE_URL = harness.databaseURL;
  return () => harness.stop();
}
