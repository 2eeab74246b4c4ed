/**
 * Issue 38, item 3: at 390 × 844 (a phone) no page of the webapp is wider
 * than the viewport. Every route of src/config/paths.ts is visited: the
 * public ones signed out, the rest as a seller with a paid credit pack (so
 * the transactions and usage tables have rows), once each page has settled.
 * Tables may scroll sideways inside their own region; the page may not.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { paths } from '../src/config/paths.ts';
import { expectNoSeriousA11yViolations } from './a11y.ts';
import { publicRoutes, signedInRoutes } from './routes.ts';
import { apiFailures, baseURL, loadDeferredCards, screenshot, signUp, uniqueEmail } from './support.ts';

const PASSWORD = 'Correct-Horse-42!';
const WIDTH = 390;
const phone = { viewport: { width: WIDTH, height: 844 }, isMobile: true, hasTouch: true };

const failures = apiFailures();
test.afterEach(async ({}, testInfo) => failures.report(testInfo));

test('every route of paths.ts is listed here', () => {
  const listed = new Set([...publicRoutes, ...signedInRoutes].map((r) => r.split('?')[0]));
  for (const [name, value] of Object.entries(paths)) {
    const route = typeof value === 'function' ? value('00000000-0000-0000-0000-000000000000') : value;
    expect(listed.has(route), `paths.${name} (${route}) is checked at 390 px`).toBe(true);
  }
});

/** Loads route, waits until it has settled, and measures how wide the page is. */
async function pageWidth(page: Page, route: string): Promise<number> {
  await page.goto(route);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await loadDeferredCards(page);
  await page.waitForLoadState('networkidle');
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
}

async function checkRoutes(browser: Browser, routes: string[], signedIn: boolean) {
  const context = await browser.newContext({ baseURL: baseURL(), ...phone });
  try {
    if (signedIn) {
      await signUp(context.request, uniqueEmail(), PASSWORD);
      // A paid pack: rows in the transactions and usage tables.
      const page = await context.newPage();
      await page.goto(`${paths.checkout}?credits=100`);
      await page.getByRole('button', { name: 'Pay $9.99' }).click();
      await expect(page).toHaveURL(/\/checkout\/success\?/);
      await page.close();
    }
    const page = await context.newPage();
    failures.watch(page);
    const tooWide: string[] = [];
    for (const route of routes) {
      const width = await pageWidth(page, route);
      const name = route.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home';
      await screenshot(page, 'mobile-width', name);
      if (width > WIDTH) tooWide.push(`${route}: ${width} px`);
    }
    expect(tooWide, `pages wider than ${WIDTH} px`).toEqual([]);
  } finally {
    await context.close();
  }
}

test(`signed out: no public page is wider than ${WIDTH} px`, async ({ browser }) => {
  test.setTimeout(120_000);
  await checkRoutes(browser, publicRoutes, false);
});

test(`signed in: no page is wider than ${WIDTH} px`, async ({ browser }) => {
  test.setTimeout(240_000);
  await checkRoutes(browser, signedInRoutes, true);
});

test('the API Keys page at 390 px fits; focus returns from a dialog; skip link; Tab reaches the deferred cards; navigation announced', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: baseURL(), ...phone });
  try {
    await signUp(context.request, uniqueEmail(), PASSWORD);
    const page = await context.newPage();
    failures.watch(page);
    expect(await pageWidth(page, paths.apiKeys)).toBeLessThanOrEqual(WIDTH);
    await expect(page.getByRole('navigation', { name: 'Quick' })).toBeInViewport();
    await expectNoSeriousA11yViolations(page, 'api-keys at 390 px');

    // Issue 38, item 4. A closed dialog gives the focus back to its trigger.
    const trigger = page.getByRole('button', { name: 'Regenerate API Key' });
    await trigger.click();
    await expect(page.getByRole('dialog', { name: 'Regenerate API Key' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Regenerate API Key' })).toBeHidden();
    await expect(trigger).toBeFocused();

    // The first Tab reaches the skip link, which moves the focus to the page.
    await page.goto(paths.dashboard);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('#main')).toBeFocused();

    // That first Tab also loaded the cards deferred below the fold (nothing
    // scrolled them near), so tabbing on reaches the Alerts form's field
    // instead of passing over a grey placeholder.
    await expect(page.locator('[data-deferred]')).toHaveCount(0);
    const lowBalance = page.getByRole('form', { name: 'Alerts' }).getByLabel('Low balance alert (credits)');
    await expect(lowBalance).toBeAttached();
    for (let presses = 0; presses < 80 && !(await lowBalance.evaluate((el) => el === document.activeElement)); presses++) {
      await page.keyboard.press('Tab');
    }
    await expect(lowBalance).toBeFocused();

    // A client-side navigation is announced by the new page's title.
    await page.getByRole('navigation', { name: 'Quick' }).getByRole('link', { name: 'API Keys' }).click();
    await expect(page.getByTestId('route-announcer')).toHaveText(/^API Keys · /);
  } finally {
    await context.close();
  }
});

// The dashboard's deferred cards (issue 38): each card's slot keeps the
// height of its grey placeholder while the card's code loads, while the card
// shows its own loading spinner, and once it has its data, so the cards
// below do not move (Lighthouse measured a layout shift of 0.036 on the
// desktop dashboard when the placeholders were three lines tall and the
// cards arrived, then grew again when their data came).
for (const viewport of [
  { width: WIDTH, height: 844 },
  { width: 1350, height: 940 },
]) {
  test(`the dashboard's deferred cards keep their placeholders' height at ${viewport.width} px`, async ({ browser }) => {
    const context = await browser.newContext({ baseURL: baseURL(), viewport });
    const page = await context.newPage();
    failures.watch(page);
    await signUp(context.request, uniqueEmail(), PASSWORD);
    await page.goto(paths.dashboard);
    await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
    await expect(page.locator('.deferred-slot')).toHaveCount(4);
    const slots = () =>
      page.locator('.deferred-slot').evaluateAll((all) =>
        all.map((slot) => ({
          deferred: slot.querySelector('[data-deferred]') !== null,
          height: slot.getBoundingClientRect().height,
          settled: slot.querySelector('.skeleton-card, [role="status"]') === null,
        })),
      );
    const before = await slots();
    const placeholders = before.flatMap((slot, i) => (slot.deferred ? [i] : []));
    expect(placeholders.length, 'placeholders on the page before the scroll').toBeGreaterThan(0);
    // Every height the slots take on the way, sampled until each card has its data.
    const seen: string[] = [];
    await loadDeferredCards(page);
    await expect(async () => {
      const now = await slots();
      for (const i of placeholders) {
        if (Math.abs(now[i].height - before[i].height) > 16) seen.push(`slot ${i}: ${before[i].height} px, then ${now[i].height} px`);
      }
      expect(
        now.every((slot) => slot.settled),
        'every card with its data',
      ).toBe(true);
    }).toPass({ intervals: [50], timeout: 15_000 });
    expect(seen, 'a slot that changed height while its card loaded').toEqual([]);
    await context.close();
  });
}
