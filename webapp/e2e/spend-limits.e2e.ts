/**
 * Spend limits (issue 33 item 3) against the real server: a verified seller
 * buys credits (simulated provider), sets a daily limit of 2 on the
 * dashboard, spends up to it from /v1, and the next spend answers 402
 * spend_limit_reached with the limit, what was spent and when it resets;
 * the dashboard says the limit is reached, without a reload. Bad input gets
 * its field error. Screenshots in test-results/screenshots/spend-limits-<step>.png.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y.ts';
import { apiFailures, createListing, loadDeferredCards, newSeller, screenshot, toast } from './support.ts';

const AMAZON_URL = 'https://www.amazon.com/dp/B08N5WRWNW';

const failures = apiFailures();
test.afterEach(async ({}, testInfo) => failures.report(testInfo));

/** The dashboard's Spend limits card. */
function card(page: Page) {
  return page.locator('section').filter({ has: page.getByRole('heading', { name: 'Spend limits' }) });
}

test.describe.serial('spend limits', () => {
  let context: BrowserContext;
  let page: Page;
  let apiKey = '';

  test.beforeAll(async ({ browser }) => {
    ({ context, page, apiKey } = await newSeller(browser, failures, { credits: { count: 100, price: '$9.99' } }));
  });

  test.afterAll(async () => {
    await context.close();
  });

  test('a limit that is not a whole number gets its field error', async () => {
    await page.goto('/dashboard');
    await loadDeferredCards(page);
    const daily = card(page).getByLabel('Daily limit (credits)');
    await daily.fill('-5');
    await card(page).getByRole('button', { name: 'Save limits' }).click();
    await expect(card(page).getByText('Enter a whole number of credits, or leave it empty for no limit')).toBeVisible();
    await screenshot(page, 'spend-limits', 'field-error');
  });

  test('sets a daily limit of 2; spends up to it from /v1; the next spend is spend_limit_reached', async () => {
    const daily = card(page).getByLabel('Daily limit (credits)');
    await daily.fill('2');
    await card(page).getByRole('button', { name: 'Save limits' }).click();
    await expect(toast(page, 'Spend limits saved')).toBeVisible();
    await expect(card(page).getByText(/^0 of 2 credits \(resets /)).toBeVisible();
    await screenshot(page, 'spend-limits', 'set');

    for (let i = 0; i < 2; i++) {
      const made = await createListing(apiKey, AMAZON_URL);
      expect(made.status, made.body).toBe(201);
    }
    const refused = await createListing(apiKey, AMAZON_URL);
    expect(refused.status, refused.body).toBe(402);
    const body = JSON.parse(refused.body) as { code: string; period: string; limit: number; spent: number; resetsAt: string };
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(body).toMatchObject({ code: 'spend_limit_reached', period: 'daily', limit: 2, spent: 2 });
    expect(new Date(body.resetsAt).toISOString()).toBe(midnight.toISOString());

    // The dashboard follows the spends live: no reload.
    const notice = page.getByRole('status', { name: 'Spend limit reached' });
    await expect(notice).toContainText('Daily spend limit reached: 2 of 2 credits spent today', { timeout: 15_000 });
    await expect(notice).toContainText('spend_limit_reached');
    await expect(card(page).getByText(/^2 of 2 credits \(resets /)).toBeVisible();
    await screenshot(page, 'spend-limits', 'reached');
    await expectNoSeriousA11yViolations(page, 'dashboard with a spend limit reached');
  });
});
