/**
 * Every route of the built app (dist/, served by bin/api) loads: signed out
 * and signed in, each page shows its heading with no uncaught exception, no
 * console error and no empty root. A build whose chunks do not link (a
 * bundler's chunk groups emitting an export it never defines, as one did:
 * "Export 'app_layout_exports' is not defined in module") fails here, where
 * the unit tests, which run the sources, cannot see it. The only errors
 * allowed are the answers a route is meant to get: the unknown path's 404
 * and the unknown receipt's.
 */
import { expect, test, type Browser, type ConsoleMessage, type Page } from '@playwright/test';
import { paths } from '../src/config/paths.ts';
import { NO_SUCH_PAGE, publicRoutes, signedInRoutes } from './routes.ts';
import { apiFailures, baseURL, loadDeferredCards, PASSWORD, signUp, uniqueEmail } from './support.ts';

const failures = apiFailures();
test.afterEach(async ({}, testInfo) => failures.report(testInfo));

const UNKNOWN_RECEIPT = paths.receipt('00000000-0000-0000-0000-000000000000');

/** The failed loads a route is meant to see (Chromium logs a 4xx answer as a console error). */
function expectedFailure(route: string, message: ConsoleMessage): boolean {
  if (!/^Failed to load resource: the server responded with a status of 404/.test(message.text())) return false;
  const { pathname } = new URL(message.location().url, baseURL());
  if (route === NO_SUCH_PAGE) return pathname === NO_SUCH_PAGE;
  if (route === UNKNOWN_RECEIPT) return pathname === '/api/transactions/00000000-0000-0000-0000-000000000000';
  return false;
}

/** Loads each route in turn in a fresh page load; returns what went wrong, one line per problem. */
async function visit(page: Page, routes: string[]): Promise<string[]> {
  const problems: string[] = [];
  let route = '';
  page.on('pageerror', (error) => problems.push(`${route}: uncaught ${error.name}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !expectedFailure(route, message)) problems.push(`${route}: console error: ${message.text()}`);
  });
  for (route of routes) {
    await page.goto(route);
    const heading = page.getByRole('heading', { level: 1 }).first();
    const shown = await heading.waitFor({ state: 'visible', timeout: 30_000 }).then(
      () => true,
      () => false,
    );
    // What loads after the first paint (the dashboard's deferred cards, the
    // account menu) loads too, then the page is quiet.
    if (shown) await loadDeferredCards(page);
    await page.waitForLoadState('networkidle');
    const rootText = await page.locator('#root').innerText();
    if (!shown) problems.push(`${route}: no heading (the root says: ${JSON.stringify(rootText.slice(0, 200))})`);
    if (rootText.trim() === '') problems.push(`${route}: blank page (an empty #root)`);
    if (await page.getByRole('heading', { name: 'Something went wrong' }).count()) problems.push(`${route}: the error screen`);
  }
  return problems;
}

async function checkRoutes(browser: Browser, signedIn: boolean) {
  const context = await browser.newContext({ baseURL: baseURL() });
  try {
    if (signedIn) await signUp(context.request, uniqueEmail(), PASSWORD);
    const page = await context.newPage();
    failures.watch(page);
    expect(await visit(page, [...publicRoutes, ...signedInRoutes]), 'problems while loading the routes').toEqual([]);
  } finally {
    await context.close();
  }
}

test('signed out: every route of the built app loads without an error', async ({ browser }) => {
  test.setTimeout(180_000);
  await checkRoutes(browser, false);
});

test('signed in: every route of the built app loads without an error', async ({ browser }) => {
  test.setTimeout(240_000);
  await checkRoutes(browser, true);
});
