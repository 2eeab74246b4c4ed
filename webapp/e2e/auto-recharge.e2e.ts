/**
 * Auto-recharge (issue 33 item 2) against the real server and the simulated
 * provider: a verified seller buys 100 credits, saves a simulated card with
 * the labelled test form, turns auto-recharge on (below 100 credits, packs
 * of 100, at most $50 a month), spends one credit from /v1, and the pack's
 * 100 credits arrive once, visible on the dashboard without a reload; the
 * transactions list names the recharge. Bad input gets its field error. A
 * card needing 3-D Secure: the recharge waits, and Confirm payment pays it.
 * Screenshots in test-results/screenshots/auto-recharge-<step>.png.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y.ts';
import { apiFailures, createListing, creditsAvailable, loadDeferredCards, newSeller, screenshot, toast } from './support.ts';

const AMAZON_URL = 'https://www.amazon.com/dp/B08N5WRWNW';

const failures = apiFailures();
test.afterEach(async ({}, testInfo) => failures.report(testInfo));

/** The dashboard's Auto-recharge card. */
function card(page: Page) {
  return page.locator('section').filter({ has: page.getByRole('heading', { name: 'Auto-recharge' }) });
}

test.describe.serial('auto-recharge', () => {
  let context: BrowserContext;
  let page: Page;
  let apiKey = '';

  test.beforeAll(async ({ browser }) => {
    ({ context, page, apiKey } = await newSeller(browser, failures, { credits: { count: 100, price: '$9.99' } }));
  });

  test.afterAll(async () => {
    await context.close();
  });

  test('saves a simulated card with the labelled test form', async () => {
    await page.goto('/dashboard');
    await loadDeferredCards(page);
    await card(page).getByRole('button', { name: 'Save a card' }).click();
    const form = card(page).getByRole('group', { name: 'Card' });
    await expect(form.getByRole('note')).toContainText('Test mode');
    await screenshot(page, 'auto-recharge', 'card-form');
    await form.getByRole('button', { name: 'Save card 4242 (charges succeed)' }).click();
    await expect(toast(page, 'Card saved')).toBeVisible();
    await expect(card(page).getByRole('group', { name: 'Saved card' })).toContainText('visa ending in 4242');
  });

  test('a monthly limit below one pack gets its field error', async () => {
    await card(page).getByLabel('When available credits fall below').fill('100');
    await card(page).getByLabel('Buy this pack').selectOption('100');
    await card(page).getByLabel('Monthly limit (USD)').fill('5');
    await card(page).getByRole('button', { name: 'Save auto-recharge' }).click();
    await expect(card(page).getByText('monthlyLimitCents must be at least the pack\'s price, 999 cents')).toBeVisible();
    await screenshot(page, 'auto-recharge', 'field-error');
  });

  test('turns it on; a spend below the threshold adds one pack, without a reload', async () => {
    await card(page).getByLabel('Recharge automatically').check();
    await card(page).getByLabel('When available credits fall below').fill('100');
    await card(page).getByLabel('Buy this pack').selectOption('100');
    await card(page).getByLabel('Monthly limit (USD)').fill('50');
    await card(page).getByRole('button', { name: 'Save auto-recharge' }).click();
    await expect(toast(page, 'Auto-recharge saved')).toBeVisible();
    await screenshot(page, 'auto-recharge', 'on');

    const made = await createListing(apiKey, AMAZON_URL); // 100 -> 99: below 100
    expect(made.status, made.body).toBe(201);

    await expect(creditsAvailable(page)).toHaveText('199', { timeout: 20_000 });
    await expect(card(page).getByText('$9.99 of $50.00')).toBeVisible({ timeout: 15_000 });
    await screenshot(page, 'auto-recharge', 'recharged');
    await expectNoSeriousA11yViolations(page, 'dashboard with auto-recharge on');

    // Once: the balance stays, and the transactions list names the recharge.
    await page.waitForTimeout(3000);
    await expect(creditsAvailable(page)).toHaveText('199');
    await page.goto('/transactions');
    await expect(page.getByText('Auto-recharge: 100 credits', { exact: true })).toHaveCount(1);
    await screenshot(page, 'auto-recharge', 'transactions');
  });

  test('a card needing 3-D Secure: the recharge waits, and is paid with Confirm payment', async () => {
    await page.goto('/dashboard');
    await loadDeferredCards(page);
    await card(page).getByRole('button', { name: 'Replace card' }).click();
    await card(page).getByRole('group', { name: 'Card' }).getByRole('button', { name: 'Save card 3184 (charges need 3-D Secure)' }).click();
    await expect(toast(page, 'Card saved')).toBeVisible();
    await expect(card(page).getByRole('group', { name: 'Saved card' })).toContainText('ending in 3184');
    await card(page).getByLabel('Recharge automatically').check();
    await card(page).getByLabel('When available credits fall below').fill('200');
    await card(page).getByRole('button', { name: 'Save auto-recharge' }).click();
    await expect(toast(page, 'Auto-recharge saved')).toBeVisible();

    const made = await createListing(apiKey, AMAZON_URL); // 199 -> 198: below 200
    expect(made.status, made.body).toBe(201);
    const notice = page.getByRole('status', { name: 'Recharge needs your confirmation' });
    await expect(notice).toBeVisible({ timeout: 20_000 });
    await expect(creditsAvailable(page)).toHaveText('198');
    await screenshot(page, 'auto-recharge', 'needs-authentication');
    await notice.getByRole('button', { name: 'Confirm payment' }).click();
    await notice.getByRole('button', { name: 'Pay $9.99' }).click();
    await expect(creditsAvailable(page)).toHaveText('298', { timeout: 20_000 });
    await expect(notice).toBeHidden({ timeout: 15_000 });
    await screenshot(page, 'auto-recharge', 'authenticated');
  });
});
