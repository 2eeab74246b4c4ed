/**
 * Balance alerts (issue 33) against the real server: a seller with 100
 * credits sets a low-balance alert at 98 in the dashboard's Alerts section,
 * spends 3 credits from /v1 as the desktop client does, and sees the
 * low-balance banner appear without a reload and one "running low" mail in
 * the development mailbox; buying credits takes the banner away and mails a
 * "recovered" note. Role and label locators, no sleeps; screenshots in
 * test-results/screenshots/alerts-<step>.png; each new state is checked with
 * axe-core (a11y.ts).
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y.ts';
import { apiFailures, baseURL, buyCredits, createListing, creditsAvailable, loadDeferredCards, newSeller, screenshot, toast } from './support.ts';

const AMAZON_URL = 'https://www.amazon.com/dp/B08N5WRWNW';

const failures = apiFailures();
test.afterEach(async ({}, testInfo) => failures.report(testInfo));

type CapturedMail = { to: string; subject: string; text: string };

/** The subjects of the mails to `to` in the development mailbox. */
async function subjects(to: string): Promise<string[]> {
  const response = await fetch(`${baseURL()}/api/dev/mail?to=${encodeURIComponent(to)}`);
  expect(response.ok, `GET /api/dev/mail: ${response.status}`).toBe(true);
  return ((await response.json()) as CapturedMail[]).map((m) => m.subject);
}

const countOf = (list: string[], part: string) => list.filter((s) => s.includes(part)).length;

function banner(page: Page) {
  return page.getByRole('note', { name: 'Low balance' });
}

test.describe.serial('balance alerts', () => {
  let email = '';
  let context: BrowserContext;
  let page: Page;
  let apiKey = '';

  test.beforeAll(async ({ browser }) => {
    ({ context, page, email, apiKey } = await newSeller(browser, failures, { credits: { count: 100, price: '$9.99' } }));
  });

  test.afterAll(async () => {
    await context.close();
  });

  test('sets a low-balance alert in the Alerts section', async () => {
    await page.goto('/dashboard');
    await loadDeferredCards(page);
    await expect(creditsAvailable(page)).toHaveText('100');
    const form = page.getByRole('form', { name: 'Alerts' });
    await form.getByLabel('Low balance alert (credits)').fill('-1');
    await form.getByRole('button', { name: 'Save Alerts' }).click();
    await expect(form.getByText('Enter a whole number of credits from 0 to 10,000,000, or leave it blank.')).toBeVisible();

    await form.getByLabel('Low balance alert (credits)').fill('98');
    await form.getByLabel('Expiry reminder (days before)').fill('3');
    await form.getByRole('button', { name: 'Save Alerts' }).click();
    await expect(toast(page, 'Alerts Saved')).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
    await page.reload();
    await loadDeferredCards(page);
    await expect(form.getByLabel('Low balance alert (credits)')).toHaveValue('98');
    await expect(form.getByLabel('Expiry reminder (days before)')).toHaveValue('3');
    await screenshot(page, 'alerts', 'set');
    await expectNoSeriousA11yViolations(page, 'dashboard with alerts set');
  });

  test('spending past it from /v1 shows the banner without a reload and mails once', async () => {
    for (let i = 0; i < 3; i++) {
      const spent = await createListing(apiKey, AMAZON_URL);
      expect(spent.status, spent.body).toBe(201);
    }
    await expect(banner(page)).toContainText('Your credits are running low: 97 credits left, below your alert at 98.');
    await expect(creditsAvailable(page)).toHaveText('97');
    await expect.poll(async () => countOf(await subjects(email), 'credits are running low: 97 credits left')).toBe(1);
    expect(countOf(await subjects(email), 'running low')).toBe(1);
    await screenshot(page, 'alerts', 'low-balance-banner');
    await expectNoSeriousA11yViolations(page, 'dashboard with the low-balance banner');
  });

  test('buying credits takes the banner away and mails a recovered note', async () => {
    await buyCredits(page, 100, '$9.99');
    await page.goto('/dashboard');
    await loadDeferredCards(page);
    await expect(creditsAvailable(page)).toHaveText('197');
    await expect(banner(page)).toHaveCount(0);
    await expect.poll(async () => countOf(await subjects(email), 'credits have recovered: 197 credits available')).toBe(1);
    expect(countOf(await subjects(email), 'running low')).toBe(1);
    await screenshot(page, 'alerts', 'recovered');
  });
});
