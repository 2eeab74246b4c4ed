/**
 * Named API keys (issue 34, item 3) against the real server: a seller buys
 * credits, creates a second key on the API Keys page, spends from /v1 with
 * both (one balance), rotates the Default key with a one-hour grace (the old
 * and the new key both work), and revokes the second key with a
 * confirmation (it is refused at once, 401 api_key_invalid); a test-mode key
 * spends sandbox credits only, and the sandbox resets to 1,000. The page fits
 * 390 px and is axe clean. Screenshots in test-results/screenshots/api-keys-<step>.png.
 */
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y.ts';
import { apiFailures, createListing, newSeller, screenshot, toast } from './support.ts';

const AMAZON_URL = 'https://www.amazon.com/dp/B08N5WRWNW';

const failures = apiFailures();
test.afterEach(async ({}, testInfo) => failures.report(testInfo));

function keyItem(page: Page, name: string) {
  return page.getByRole('list', { name: 'API keys' }).getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) });
}

/** The key a SecretField in scope holds: shown if still masked (it is until asked), then read. */
async function revealedKey(scope: Locator): Promise<string> {
  await expect(scope.getByRole('textbox', { name: 'API Key' }).first()).toBeVisible();
  const show = scope.getByRole('button', { name: 'Show API key' });
  if ((await show.count()) > 0) await show.first().click();
  await expect(scope.getByRole('button', { name: 'Hide API key' }).first()).toBeVisible();
  return scope.getByRole('textbox', { name: 'API Key' }).first().inputValue();
}

async function credits(page: Page) {
  const profile = await page.request.get('/api/user/profile');
  return ((await profile.json()) as { creditsAvailable: number }).creditsAvailable;
}

test.describe.serial('api keys', () => {
  let context: BrowserContext;
  let page: Page;
  let defaultKey = '';
  let officeKey = '';

  test.beforeAll(async ({ browser }) => {
    ({ context, page, apiKey: defaultKey } = await newSeller(browser, failures, { credits: { count: 100, price: '$9.99' } }));
  });

  test.afterAll(async () => {
    await context.close();
  });

  test('an empty name gets its field error', async () => {
    await page.goto('/api-keys');
    await expect(keyItem(page, 'Default')).toBeVisible();
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByText('A key name is required')).toBeVisible();
  });

  test('creates a second key and spends with both from one balance', async () => {
    await page.getByLabel('Key name').fill('Office PC');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(toast(page, 'API Key Created')).toBeVisible();
    const shown = page.getByRole('status', { name: 'Key created' });
    await expect(shown).toContainText('Office PC');
    officeKey = await revealedKey(shown);
    expect(officeKey).toMatch(/^a2e_/);
    expect(officeKey).not.toBe(defaultKey);
    const office = keyItem(page, 'Office PC');
    await expect(office).toContainText(officeKey.slice(0, 10));
    await expect(office).toContainText('live');
    await screenshot(page, 'api-keys', 'created');

    const before = await credits(page);
    for (const key of [defaultKey, officeKey]) {
      const made = await createListing(key, AMAZON_URL);
      expect(made.status, made.body).toBe(201);
    }
    // The profile is a read table: it follows the spends within moments.
    await expect.poll(() => credits(page)).toBe(before - 2);

    // The examples can be written with the chosen key.
    await page.getByLabel('Key in the examples').selectOption({ label: `Office PC (${officeKey.slice(0, 10)}…)` });
    // Shown masked, as the key field shows it (its copy button copies the key itself).
    await expect(page.locator('pre[data-snippet="curl"]')).toContainText(`X-API-Key: ${officeKey.slice(0, 4)}•`);
    await expect(page.locator('pre[data-snippet="curl"]')).toContainText(`${officeKey.slice(-4)}"`);
  });

  test('rotates the Default key with a one-hour grace: old and new keys both work', async () => {
    await keyItem(page, 'Default').getByRole('button', { name: 'Rotate Default' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate Default' });
    await dialog.getByLabel('Old key').selectOption({ label: 'Keep the old key working for 1 hour' });
    await dialog.getByRole('button', { name: 'Rotate key' }).click();
    await expect(toast(page, 'API Key Rotated')).toBeVisible();
    const shown = page.getByRole('status', { name: 'Key rotated' });
    const newKey = await revealedKey(shown);
    expect(newKey).not.toBe(defaultKey);
    await expect(page.getByText('Rotated', { exact: true })).toBeVisible();
    await screenshot(page, 'api-keys', 'rotated');
    for (const key of [defaultKey, newKey]) {
      const made = await createListing(key, AMAZON_URL);
      expect(made.status, made.body).toBe(201);
    }
    // The profile's key (the Default card) is the new one.
    const defaultCard = page.getByRole('main');
    await defaultCard.getByRole('button', { name: 'Show API key' }).first().click();
    await expect(defaultCard.getByRole('textbox', { name: 'API Key' }).first()).toHaveValue(newKey);
  });

  test('revokes the second key with a confirmation: refused at once', async () => {
    await keyItem(page, 'Office PC').getByRole('button', { name: 'Revoke Office PC' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke Office PC' });
    await expect(dialog).toContainText('stops working at once');
    await dialog.getByRole('button', { name: 'Yes, Revoke' }).click();
    await expect(toast(page, 'API Key Revoked')).toBeVisible();
    await expect(keyItem(page, 'Office PC')).toHaveCount(0);
    const refused = await createListing(officeKey, AMAZON_URL);
    expect(refused.status, refused.body).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'api_key_invalid' });
    await screenshot(page, 'api-keys', 'revoked');
    await expectNoSeriousA11yViolations(page, 'api-keys with several keys');
  });

  test('a test-mode key spends sandbox credits, never real ones; the sandbox resets to 1,000', async () => {
    await page.getByLabel('Key name').fill('Sandbox');
    await page.getByLabel('Mode').selectOption('test');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('status', { name: 'Key created' });
    await expect(shown).toContainText('Sandbox');
    const testKey = await shown.getByRole('textbox', { name: 'API Key' }).inputValue();
    expect(testKey).toMatch(/^a2e_test_/);
    await expect(keyItem(page, 'Sandbox')).toContainText('test');

    const before = await credits(page);
    const made = await createListing(testKey, AMAZON_URL);
    expect(made.status, made.body).toBe(201);
    const trigger = await createListing(testKey, 'https://www.amazon.com/dp/B0TEST0429');
    expect(trigger.status, trigger.body).toBe(429);
    await page.reload();
    await expect(page.getByLabel('Test credits')).toContainText('999');
    expect(await credits(page)).toBe(before);
    await page.getByRole('button', { name: 'Reset to 1,000 test credits' }).click();
    await expect(toast(page, 'Sandbox Reset')).toBeVisible();
    await expect(page.getByLabel('Test credits')).toContainText('1,000');
    await screenshot(page, 'api-keys', 'test-mode');
  });

  test('the page with several keys fits 390 px and is axe clean', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Key name').fill('Phone');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(keyItem(page, 'Phone')).toBeVisible();
    await page.waitForLoadState('networkidle');
    const width = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
    expect(width).toBeLessThanOrEqual(390);
    await screenshot(page, 'api-keys', 'mobile');
    await expectNoSeriousA11yViolations(page, 'api-keys at 390 px with several keys');
  });
});
