/**
 * Browser journeys against the real server (harness.ts): role and label
 * locators, no sleeps: every step waits for what the seller would see.
 * Each page visited is saved to test-results/screenshots/<journey>-<page>.png.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import {
  apiFailures,
  baseURL,
  createListing,
  creditsAvailable,
  screenshot,
  subscriptionCard,
  toast,
  uniqueEmail,
  verificationCode,
} from './support.ts';

const PASSWORD = 'Correct-Horse-42!';

// A failed step reports the API calls that answered with an error, so that
// a missing endpoint or a changed contract names itself.
const failures = apiFailures();
test.afterEach(async ({}, testInfo) => failures.report(testInfo));
const AMAZON_URL = 'https://www.amazon.com/dp/B08N5WRWNW';

test('landing: the page renders and Sign up leads to the sign-up form', async ({ page }) => {
  failures.watch(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const anchor of ['Features', 'Pricing', 'Testimonials']) {
    await expect(page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: anchor })).toBeVisible();
  }
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Log in' })).toBeVisible();
  // The pricing card comes from GET /api/plans.
  await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible();
  await screenshot(page, 'landing', 'home');

  await header.getByRole('link', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByRole('heading', { name: 'Create Elite Account' })).toBeVisible();
  await screenshot(page, 'landing', 'register');
});

test('not found: an unknown path shows the 404 screen', async ({ page }) => {
  failures.watch(page);
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByText('404', { exact: true })).toBeVisible();
  await expect(page.getByText("The page you're looking for doesn't exist or has been moved.")).toBeVisible();
  await screenshot(page, 'not-found', '404');

  await page.getByRole('link', { name: 'Return to Homepage' }).click();
  await expect(page).toHaveURL(`${baseURL()}/`);
});

/**
 * One seller from sign-up to cancellation; each step starts where the one
 * before left the account, so they run in order in one browser context.
 */
test.describe.serial('seller', () => {
  const email = uniqueEmail();
  let context: BrowserContext;
  let page: Page;
  let apiKey = '';
  let previousKey = '';

  test.beforeAll(async ({ browser }) => {
    context = await browser.newContext({ baseURL: baseURL() });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL() });
    page = await context.newPage();
    failures.watch(page);
  });

  test.afterAll(async () => {
    await context.close();
  });

  test('signs up, verifies the emailed code and lands on the dashboard', async () => {
    await page.goto('/register');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password').fill(PASSWORD);
    await screenshot(page, 'signup', 'register');
    await page.getByRole('button', { name: 'Create account' }).click();

    await expect(page).toHaveURL(/\/verify-email$/);
    await expect(page.getByRole('heading', { name: 'Verify Your Email' })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await page.getByLabel('Verification code').fill(await verificationCode(email));
    await screenshot(page, 'signup', 'verify-email');
    await page.getByRole('button', { name: 'Verify Email' }).click();
    await expect(page.getByText('Your email has been verified. Redirecting to dashboard...')).toBeVisible();

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Welcome to Amazon to eBay Automation' })).toBeVisible();
    await expect(creditsAvailable(page)).toHaveText('0');
    await expect(subscriptionCard(page).getByText('Inactive', { exact: true })).toBeVisible();
    await screenshot(page, 'signup', 'dashboard');
  });

  test('buys 100 credits through the simulated provider', async () => {
    await page.getByRole('button', { name: 'Buy More' }).click();
    const dialog = page.getByRole('dialog', { name: 'Buy Credits' });
    await dialog.getByRole('radio', { name: /^100 credits/ }).check();
    await screenshot(page, 'credits', 'dialog');
    await dialog.getByRole('button', { name: 'Continue to Checkout' }).click();

    await expect(page).toHaveURL(/\/checkout\?credits=100$/);
    await expect(page.getByRole('heading', { name: 'Checkout' })).toBeVisible();
    await expect(page.getByRole('note')).toContainText('simulated payment');
    const pay = page.getByRole('button', { name: 'Pay $9.99' });
    await expect(pay).toBeEnabled();
    await screenshot(page, 'credits', 'checkout');
    await pay.click();

    await expect(page).toHaveURL(/\/checkout\/success\?/);
    await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
    await expect(page.getByText('100 credits for $9.99 have been added to your account.')).toBeVisible();
    await screenshot(page, 'credits', 'success');
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(creditsAvailable(page)).toHaveText('100');
    const recent = page.getByRole('row').filter({ hasText: '$9.99' });
    await expect(recent).toHaveCount(1);
    await expect(recent.getByText('Paid', { exact: true })).toBeVisible();
    await screenshot(page, 'credits', 'dashboard');

    await page.getByRole('link', { name: 'View all transactions' }).click();
    await expect(page).toHaveURL(/\/transactions$/);
    const row = page.getByRole('row').filter({ hasText: '$9.99' });
    await expect(row).toHaveCount(1);
    await expect(row.getByText('Paid', { exact: true })).toBeVisible();
    await screenshot(page, 'credits', 'transactions');
  });

  test('subscribes to the monthly plan: Active and 500 more credits', async () => {
    await page.goto('/subscribe');
    await expect(page.getByRole('heading', { name: 'Subscribe', exact: true })).toBeVisible();
    const pay = page.getByRole('button', { name: /^Subscribe for / });
    await expect(pay).toBeEnabled();
    await screenshot(page, 'subscribe', 'subscribe');
    await pay.click();

    await expect(page).toHaveURL(/\/subscribe\/success$/);
    await expect(page.getByRole('heading', { name: 'Subscription Successful' })).toBeVisible();
    await screenshot(page, 'subscribe', 'success');
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(subscriptionCard(page).getByText('Active', { exact: true })).toBeVisible();
    await expect(creditsAvailable(page)).toHaveText('600');
    await screenshot(page, 'subscribe', 'dashboard');
  });

  test('copies the API key and regenerates it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API Keys' }).click();
    await expect(page).toHaveURL(/\/api-keys$/);
    const keyField = page.getByRole('textbox', { name: 'API Key' });
    await expect(keyField).not.toHaveValue('');
    previousKey = await keyField.inputValue();

    await page.getByRole('button', { name: 'Copy API key' }).click();
    await expect(toast(page, 'API Key Copied')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(previousKey);
    await screenshot(page, 'api-keys', 'copied');

    await page.getByRole('button', { name: 'Regenerate API Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Regenerate API Key' });
    await expect(dialog).toBeVisible();
    await screenshot(page, 'api-keys', 'regenerate-dialog');
    await dialog.getByRole('button', { name: 'Regenerate', exact: true }).click();

    await expect(dialog).toBeHidden();
    await expect(toast(page, 'API Key Regenerated')).toBeVisible();
    await expect(keyField).not.toHaveValue(previousKey);
    await expect(keyField).not.toHaveValue('');
    apiKey = await keyField.inputValue();
    await screenshot(page, 'api-keys', 'regenerated');
  });

  test('spends a credit through /v1 with the new key; the old key is refused', async () => {
    const created = await createListing(apiKey, AMAZON_URL);
    expect(created.status, `POST /v1/listings: ${created.body}`).toBe(201);

    await page.goto('/dashboard');
    await expect(creditsAvailable(page)).toHaveText('599');
    await screenshot(page, 'spend', 'dashboard');

    const refused = await createListing(previousKey, AMAZON_URL);
    expect(refused.status, `POST /v1/listings with the old key: ${refused.body}`).toBe(401);
  });

  test('cancels the subscription', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscription' }).click();
    await expect(page).toHaveURL(/\/subscription$/);
    const status = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Subscription Status' }) });
    await expect(status.getByText('Active', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();

    const dialog = page.getByRole('dialog', { name: 'Cancel Subscription' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Keep Subscription' })).toBeVisible();
    await screenshot(page, 'cancel', 'dialog');
    await dialog.getByRole('button', { name: 'Yes, Cancel' }).click();

    await expect(dialog).toBeHidden();
    await expect(toast(page, 'Subscription Cancelled')).toBeVisible();
    await expect(status.getByText('Cancelled', { exact: true })).toBeVisible();
    await screenshot(page, 'cancel', 'subscription');
  });

  test('mobile layout at 390 px: bottom bar and collapsible menu', async ({ browser }) => {
    const mobile = await browser.newContext({
      baseURL: baseURL(),
      storageState: await context.storageState(),
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    try {
      const phone = await mobile.newPage();
      failures.watch(phone);
      await phone.goto('/');
      await expect(phone.getByRole('link', { name: 'Dashboard' })).toBeVisible();
      await screenshot(phone, 'mobile', 'landing');

      await phone.goto('/dashboard');
      await expect(phone.getByRole('heading', { name: 'Welcome to Amazon to eBay Automation' })).toBeVisible();
      await expect(phone.getByRole('complementary', { name: 'Sidebar' })).toBeHidden();
      const bottomBar = phone.getByRole('navigation', { name: 'Quick' });
      await expect(bottomBar).toBeVisible();
      for (const name of ['Dashboard', 'Subscription', 'API Keys', 'Download']) {
        await expect(bottomBar.getByRole('link', { name })).toBeVisible();
      }
      await screenshot(phone, 'mobile', 'dashboard');

      await phone.getByRole('button', { name: 'Open menu' }).click();
      const menu = phone.getByRole('navigation', { name: 'Mobile' });
      await expect(menu).toBeVisible();
      await expect(menu.getByRole('link', { name: 'Usage History' })).toBeVisible();
      await screenshot(phone, 'mobile', 'menu');

      await menu.getByRole('link', { name: 'Subscription' }).click();
      await expect(phone).toHaveURL(/\/subscription$/);
      await expect(menu).toBeHidden();
      await expect(phone.getByRole('heading', { name: 'Subscription', exact: true })).toBeVisible();
      await screenshot(phone, 'mobile', 'subscription');
    } finally {
      await mobile.close();
    }
  });
});
