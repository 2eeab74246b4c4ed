/**
 * The billing lifecycle against the real server with the simulated payment
 * provider (issue 14): one seller subscribes, cancels (active until the
 * period's end) and resumes; a renewal fails (the past-due banner on every
 * page) and is paid in the simulated billing portal; a credit pack is
 * refunded (the balance goes down, the transaction says Refunded, and its
 * receipt, opened from the Transactions page, shows the refund); a
 * dispute freezes spending through /v1 until it is won.
 *
 * What Stripe would do on its side (a failed renewal, a refund, a dispute)
 * comes through the simulated provider's development routes, called with
 * the seller's session (the context's request shares its cookies). Role and
 * label locators, no sleeps; screenshots in
 * test-results/screenshots/billing-<step>.png; each new page or state is
 * checked with axe-core once it has settled (a11y.ts).
 */
import { expect, test, type APIRequestContext, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y.ts';
import {
  apiFailures,
  buyCredits,
  createListing,
  creditsAvailable,
  newSeller,
  screenshot,
  subscriptionCard,
  toast,
} from './support.ts';

const AMAZON_URL = 'https://www.amazon.com/dp/B08N5WRWNW';
const BANNER = 'Your last subscription payment failed. Update your payment method to keep your subscription.';

const failures = apiFailures();
test.afterEach(async ({}, testInfo) => failures.report(testInfo));

/** A simulated provider's development route, as the seller; its answer `{status, message}`. */
async function simulate(request: APIRequestContext, path: string, data: Record<string, unknown>) {
  const response = await request.post(path, { data });
  const text = await response.text();
  expect(response.ok(), `POST ${path} ${JSON.stringify(data)}: ${response.status()} ${text}`).toBe(true);
  return JSON.parse(text) as { status: string; message?: string };
}

/** The figure on the dashboard's Credits Available card, as a number. */
async function credits(page: Page): Promise<number> {
  await expect(creditsAvailable(page)).toBeVisible();
  return Number((await creditsAvailable(page).innerText()).replace(/,/g, ''));
}

/** The past-due banner (role alert) of the signed-in layout. */
function banner(page: Page): Locator {
  return page.getByRole('region', { name: 'Payment past due' }).filter({ hasText: BANNER });
}

/** The Subscription Status card of /subscription. */
function statusCard(page: Page): Locator {
  return page.locator('section').filter({ has: page.getByRole('heading', { name: 'Subscription Status' }) });
}

test.describe.serial('billing', () => {
  let context: BrowserContext;
  let page: Page;
  let apiKey = '';
  let email = '';
  let refundedSecret = '';
  let disputedSecret = '';
  let balanceBeforeRefund = 0;

  test.beforeAll(async ({ browser }) => {
    ({ context, page, email } = await newSeller(browser, failures));
  });

  test.afterAll(async () => {
    await context.close();
  });

  test('subscribes to the monthly plan', async () => {
    await page.goto('/subscribe');
    const pay = page.getByRole('button', { name: /^Subscribe for / });
    await expect(pay).toBeEnabled();
    await pay.click();
    await expect(page).toHaveURL(/\/subscribe\/success$/);
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(subscriptionCard(page).getByText('Active', { exact: true })).toBeVisible();
    await expect(subscriptionCard(page).getByText(/^Renews on /)).toBeVisible();
    await expect(creditsAvailable(page)).toHaveText('500');
    await expect(banner(page)).toHaveCount(0);
  });

  test('cancels: active until the period ends, with Resume', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscription' }).click();
    await expect(page).toHaveURL(/\/subscription$/);
    await expect(statusCard(page).getByText('Active', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Subscription' });
    await expect(dialog).toContainText('at the end of your current billing period');
    await dialog.getByRole('button', { name: 'Yes, Cancel' }).click();

    await expect(dialog).toBeHidden();
    await expect(toast(page, 'Subscription Cancelled')).toBeVisible();
    await expect(statusCard(page).getByText(/^Active until [A-Z][a-z]+ \d{2}, \d{4}$/)).toBeVisible();
    await expect(statusCard(page).getByText(/this billing cycle's credits last until/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resume Subscription' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0);
    await screenshot(page, 'billing', 'cancelling');
    await expectNoSeriousA11yViolations(page, 'subscription, cancelling');

    // The dashboard says so too, and the cycle's credits stay.
    await page.goto('/dashboard');
    await expect(subscriptionCard(page).getByText(/^Active until /)).toBeVisible();
    await expect(subscriptionCard(page).getByRole('link', { name: 'Subscribe now' })).toHaveCount(0);
    await expect(creditsAvailable(page)).toHaveText('500');
  });

  test('resumes: active again', async () => {
    await page.goto('/subscription');
    await page.getByRole('button', { name: 'Resume Subscription' }).click();
    await expect(toast(page, 'Subscription Resumed')).toBeVisible();
    await expect(statusCard(page).getByText('Active', { exact: true })).toBeVisible();
    await expect(statusCard(page).getByText(/^Next billing date: /)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();
  });

  test('a failed renewal shows the past-due banner on every page; the simulated portal pays the open invoice', async () => {
    const failed = await simulate(context.request, '/api/dev/subscription/advance-cycle', { outcome: 'failed' });
    expect(failed.status, JSON.stringify(failed)).toBe('failed');

    await page.goto('/dashboard');
    await expect(banner(page)).toBeVisible();
    await expect(subscriptionCard(page).getByText('Past Due', { exact: true })).toBeVisible();
    await expect(subscriptionCard(page).getByRole('link', { name: 'Subscribe now' })).toHaveCount(0);
    await screenshot(page, 'billing', 'past-due-dashboard');
    await expectNoSeriousA11yViolations(page, 'dashboard with the past-due banner');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API Keys' }).click();
    await expect(page).toHaveURL(/\/api-keys$/);
    await expect(banner(page)).toBeVisible();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscription' }).click();
    await expect(page).toHaveURL(/\/subscription$/);
    await expect(banner(page)).toBeVisible();
    await expect(statusCard(page).getByText(/Your last subscription payment failed/)).toBeVisible();
    await expect(statusCard(page).getByRole('button', { name: 'Update Payment Method' })).toBeVisible();
    await expect(statusCard(page).getByRole('button', { name: 'Manage Subscription' })).toHaveCount(0);
    await screenshot(page, 'billing', 'past-due-subscription');
    await expectNoSeriousA11yViolations(page, 'subscription, past due');

    await banner(page).getByRole('button', { name: 'Update Payment Method' }).click();
    await expect(page).toHaveURL(/\/dev\/billing-portal$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Simulated Billing Portal' })).toBeVisible();
    await expect(page.getByRole('note')).toContainText("Development only — stands in for Stripe's customer portal");
    await expect(page.getByText('Past Due', { exact: true })).toBeVisible();
    // The failed renewal is among the invoices.
    await expect(page.getByRole('row').filter({ hasText: '$29.99' }).getByText('Failed', { exact: true })).toBeVisible();
    await screenshot(page, 'billing', 'portal-past-due');
    await expectNoSeriousA11yViolations(page, 'simulated billing portal, past due');

    await page.getByRole('button', { name: 'Pay Open Invoice' }).click();
    await expect(toast(page, 'Payment Successful')).toBeVisible();
    await expect(page.getByText('Active', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Pay Open Invoice' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toBeVisible();
    await screenshot(page, 'billing', 'portal-paid');
    await expectNoSeriousA11yViolations(page, 'simulated billing portal, active');

    await page.getByRole('link', { name: 'Return to Subscription' }).click();
    await expect(page).toHaveURL(/\/subscription$/);
    await expect(statusCard(page).getByText('Active', { exact: true })).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
    await page.goto('/dashboard');
    await expect(subscriptionCard(page).getByText('Active', { exact: true })).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
  });

  test('buys 100 credits; a refund takes them back and the transaction says Refunded', async () => {
    refundedSecret = await buyCredits(page, 100, '$9.99');
    await page.goto('/dashboard');
    await expect(banner(page)).toHaveCount(0);
    balanceBeforeRefund = await credits(page);
    expect(balanceBeforeRefund).toBeGreaterThanOrEqual(100);

    const refund = await simulate(context.request, '/api/dev/payments/refund', { clientSecret: refundedSecret });
    expect(refund.status, JSON.stringify(refund)).toBe('refunded');

    await page.goto('/dashboard');
    await expect(creditsAvailable(page)).toHaveText((balanceBeforeRefund - 100).toLocaleString('en-US'));
    // The pack was unspent: nothing is owed.
    await expect(page.getByRole('note', { name: 'Credits owed' })).toHaveCount(0);

    await page.goto('/transactions');
    const refunded = page.getByRole('row').filter({ hasText: '$9.99' });
    await expect(refunded).toHaveCount(1);
    await expect(refunded.getByText('Refunded', { exact: true })).toBeVisible();
    await screenshot(page, 'billing', 'transactions-refunded');
    await expectNoSeriousA11yViolations(page, 'transactions with a refund');

    // Its receipt (issue 38): from the row's Invoice column, the ledger's figures and the refund.
    await expect(refunded.getByRole('link', { name: /^Invoice/ })).toHaveCount(0);
    await refunded.getByRole('link', { name: /^Receipt/ }).click();
    await expect(page).toHaveURL(/\/receipts\/pi_[^/]+$/);
    const receipt = page.getByRole('region', { name: 'Receipt' });
    await expect(receipt.getByRole('heading', { level: 1, name: 'Receipt' })).toBeVisible();
    const field = (label: string) => receipt.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
    await expect(field('Amount paid')).toHaveText('$9.99 USD');
    await expect(field('Credits')).toHaveText('100');
    await expect(field('Refunded')).toHaveText('$9.99 USD');
    await expect(field('Billed to')).toHaveText(email);
    await expect(field('Date')).toHaveText(/ UTC$/);
    await expect(receipt.locator('.badge')).toHaveText('Refunded');
    await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
    await screenshot(page, 'billing', 'receipt-refunded');
    await expectNoSeriousA11yViolations(page, 'a refunded credit purchase receipt');
  });

  test('an open dispute freezes spending through /v1 until it is won', async () => {
    await page.goto('/api-keys');
    const keyField = page.getByRole('textbox', { name: 'API Key' });
    await expect(keyField).not.toHaveValue('');
    // Masked until shown (issue 38).
    await page.getByRole('button', { name: 'Show API key' }).click();
    apiKey = await keyField.inputValue();
    expect(apiKey).not.toContain('•');

    disputedSecret = await buyCredits(page, 100, '$9.99');
    const spent = await createListing(apiKey, AMAZON_URL);
    expect(spent.status, `POST /v1/listings before the dispute: ${spent.body}`).toBe(201);

    const opened = await simulate(context.request, '/api/dev/payments/dispute', { clientSecret: disputedSecret, status: 'opened' });
    expect(opened.status, JSON.stringify(opened)).toBe('opened');

    await page.goto('/dashboard');
    const frozen = page.getByRole('note', { name: 'Spending paused' });
    await expect(frozen).toBeVisible();
    await expect(frozen).toContainText('Spending is paused while a payment dispute is open');
    await screenshot(page, 'billing', 'dispute-open');
    await expectNoSeriousA11yViolations(page, 'dashboard with a dispute open');

    const refused = await createListing(apiKey, AMAZON_URL);
    expect(refused.status, `POST /v1/listings during the dispute: ${refused.body}`).toBe(403);

    await page.goto('/transactions');
    await expect(page.getByRole('row').filter({ hasText: '$9.99' }).getByText('Disputed', { exact: true })).toBeVisible();

    const won = await simulate(context.request, '/api/dev/payments/dispute', { clientSecret: disputedSecret, status: 'won' });
    expect(won.status, JSON.stringify(won)).toBe('won');
    const allowed = await createListing(apiKey, AMAZON_URL);
    expect(allowed.status, `POST /v1/listings after the dispute was won: ${allowed.body}`).toBe(201);

    await page.goto('/dashboard');
    await expect(creditsAvailable(page)).toBeVisible();
    await expect(page.getByRole('note', { name: 'Spending paused' })).toHaveCount(0);
  });
});
