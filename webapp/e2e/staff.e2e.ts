/**
 * The support staff console against the real server: a staff member signs
 * in, sets up the second factor (the TOTP code computed here with the
 * otpauth package, as an authenticator app would), finds a seller who
 * bought credits, replays the account's history, looks at it as of the day
 * before the purchase, records an adjustment, checks the read tables
 * against the events and finds all of it in the audit trail. Role and label locators, no sleeps;
 * screenshots in test-results/screenshots/staff-<step>.png; every page is
 * checked with axe-core once it has settled (a11y.ts).
 */
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { URI } from 'otpauth';
import { expectNoSeriousA11yViolations } from './a11y.ts';
import { repoRoot } from './harness.ts';
import { apiFailures, baseURL, buyCredits, screenshot, signUp, toast, uniqueEmail } from './support.ts';

const PASSWORD = 'Correct-Horse-42!';
const REASON = 'Goodwill: a listing failed on our side';

const failures = apiFailures();
test.afterEach(async ({}, testInfo) => failures.report(testInfo));

/** `bin/api staff add EMAIL` on the harness's database. */
async function makeStaff(email: string) {
  const databaseURL = process.env.E2E_DATABASE_URL;
  if (!databaseURL) throw new Error('E2E_DATABASE_URL is not set: run through `npm run e2e`');
  const { stdout } = await promisify(execFile)(join(repoRoot, 'bin', 'api'), ['staff', 'add', email], {
    cwd: repoRoot,
    env: { ...process.env, APP_ENV: 'development', METRICS_ADDR: '127.0.0.1:0', DATABASE_URL: databaseURL },
  });
  expect(stdout).toContain(`${email} is now staff`);
}

/** The balance card's figure, "N credits". */
const figure = (balance: Locator) => balance.getByText(/^[\d,]+ credits$/);

/** yyyy-MM-dd of the day before today, in the browser's (and this process's) time zone. */
function yesterday(): string {
  const d = new Date();
  d.setDate(d.getDate() - 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

test.describe.serial('staff', () => {
  const sellerEmail = uniqueEmail();
  const staffEmail = uniqueEmail().replace('seller-', 'support-');
  let seller: BrowserContext;
  let staff: BrowserContext;
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    seller = await browser.newContext({ baseURL: baseURL() });
    staff = await browser.newContext({ baseURL: baseURL() });
  });

  test.afterAll(async () => {
    await seller.close();
    await staff.close();
  });

  test('a seller buys 100 credits through the simulated provider', async () => {
    const sellerPage = await seller.newPage();
    failures.watch(sellerPage);
    const staffRequests: string[] = [];
    sellerPage.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/staff')) staffRequests.push(request.url());
    });
    await signUp(seller.request, sellerEmail, PASSWORD);
    const user = await seller.request.get('/api/user');
    expect(await user.json()).toMatchObject({ email: sellerEmail, isVerified: true, isStaff: false });
    await buyCredits(sellerPage, 100, '$9.99');
    // A seller is not staff: the console does not exist for them.
    await sellerPage.goto('/staff');
    await expect(sellerPage.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    // The user object says who is staff: the seller's browser never asks the staff API.
    expect(staffRequests).toEqual([]);
    await screenshot(sellerPage, 'staff', 'seller-not-found');
  });

  test('a staff member signs in and sets up the second factor', async () => {
    await signUp(staff.request, staffEmail, PASSWORD);
    await makeStaff(staffEmail);
    await staff.clearCookies();
    page = await staff.newPage();
    failures.watch(page);
    await page.goto('/login');
    await page.getByLabel('Email').fill(staffEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Signed in with the password alone: the console asks for the second factor first.
    await expect(page).toHaveURL(/\/staff\/mfa$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Staff console: second factor' })).toBeVisible();
    expect((await page.request.get('/api/staff/accounts?q=x')).status()).toBe(403);
    await page.getByRole('button', { name: 'Set up the second factor' }).click();
    const url = page.getByText(/^otpauth:\/\/totp\//);
    await expect(url).toBeVisible();
    await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
    await screenshot(page, 'staff', 'mfa-setup');
    await expectNoSeriousA11yViolations(page, 'staff second factor set-up');

    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('That code is not valid.', { exact: false })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'staff second factor with a refused code');

    const code = URI.parse((await url.textContent()) ?? '').generate();
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(toast(page, 'Second factor accepted')).toBeVisible();
    await expect(page).toHaveURL(/\/staff$/);
  });

  test('a staff member finds the seller and replays the account', async () => {
    await page.goto('/dashboard');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Staff console' }).click();
    await expect(page).toHaveURL(/\/staff$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Staff console' })).toBeVisible();

    await page.getByRole('searchbox', { name: 'Email or account id' }).fill(sellerEmail);
    await page.getByRole('button', { name: 'Search' }).click();
    const hit = page.getByRole('row').filter({ hasText: sellerEmail });
    await expect(hit).toHaveCount(1);
    await expect(hit.getByRole('cell').nth(2)).toHaveText('100');
    await screenshot(page, 'staff', 'search');
    await expectNoSeriousA11yViolations(page, 'staff search');
    await hit.getByRole('link', { name: sellerEmail }).click();

    await expect(page.getByRole('heading', { level: 1, name: sellerEmail })).toBeVisible();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const purchase = timeline.getByRole('row').filter({ hasText: '100 purchase credits granted' });
    await expect(purchase).toHaveCount(1);
    await expect(purchase.getByRole('cell').nth(4)).toHaveText('+100');
    await expect(purchase.getByRole('cell').nth(5)).toHaveText('100');
    await expect(timeline.getByRole('row').filter({ hasText: /Payment \w+ of \$9\.99/ })).toHaveCount(1);
    const balance = page.getByRole('region', { name: 'Balance' });
    await expect(figure(balance)).toHaveText('100 credits');
    await expect(balance.getByRole('row').filter({ hasText: 'Purchase' })).toHaveCount(1);
    await screenshot(page, 'staff', 'account');
    await expectNoSeriousA11yViolations(page, 'staff account');
  });

  test('as of the day before the purchase the balance is 0', async () => {
    await page.getByLabel('As of').fill(yesterday());
    await expect(page).toHaveURL(new RegExp(`asOf=${yesterday()}$`));
    const balance = page.getByRole('region', { name: 'Balance' });
    await expect(figure(balance)).toHaveText('0 credits');
    await expect(balance.getByText('No grants')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Timeline' }).getByText('No events up to this moment')).toBeVisible();
    await screenshot(page, 'staff', 'as-of');
    await expectNoSeriousA11yViolations(page, 'staff account as of yesterday');

    await page.getByRole('button', { name: 'Back to now' }).click();
    await expect(figure(balance)).toHaveText('100 credits');
  });

  test('records an adjustment of +25 with the staff member as actor', async () => {
    const form = page.getByRole('region', { name: 'Adjust credits' });
    await form.getByRole('button', { name: 'Record adjustment' }).click();
    await expect(form.getByText('Credits must be a whole number other than 0')).toBeVisible();
    await expect(form.getByText('A reason of 3 to 500 characters is required')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'staff account with the adjustment errors');

    await form.getByLabel('Credits').fill('25');
    await form.getByLabel('Reason').fill(REASON);
    await form.getByRole('button', { name: 'Record adjustment' }).click();
    await expect(toast(page, 'Adjustment recorded')).toBeVisible();

    await expect(figure(page.getByRole('region', { name: 'Balance' }))).toHaveText('125 credits');
    const row = page.getByRole('region', { name: 'Timeline' }).getByRole('row').filter({ hasText: REASON });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('cell').nth(2)).toHaveText(/^staff:[0-9a-f-]{36}$/);
    await expect(row.getByRole('cell').nth(4)).toHaveText('+25');
    await expect(row.getByRole('cell').nth(5)).toHaveText('125');
    await screenshot(page, 'staff', 'adjusted');
  });

  test('the read tables match the events', async () => {
    const card = page.getByRole('region', { name: 'Read tables vs events' });
    await card.getByRole('button', { name: 'Compare again' }).click();
    await expect(card.getByText('Read tables match the events')).toBeVisible();
    await expect(card.getByRole('button', { name: 'Compare again' })).toBeEnabled();
    await screenshot(page, 'staff', 'comparison');
    await expectNoSeriousA11yViolations(page, 'staff account after the comparison');
  });

  test('the payments show what can still be refunded', async () => {
    const payments = page.getByRole('region', { name: 'Payments' });
    const row = payments.getByRole('row').filter({ hasText: '$9.99' });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('cell').nth(6)).toHaveText('$9.99 (100 credits)');
    // The last column (the row's Refund button) is not cut: the table fits
    // its region without a sideways scroll, and the button shows whole.
    const table = page.getByRole('region', { name: 'Payments table' });
    await table.scrollIntoViewIfNeeded();
    const { scrollWidth, clientWidth } = await table.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(scrollWidth, 'the payments table scrolls sideways').toBeLessThanOrEqual(clientWidth);
    await expect(row.getByRole('button', { name: /^Refund / })).toBeInViewport({ ratio: 1 });
    await screenshot(page, 'staff', 'payments');
  });

  test('the payments table shows its last column whole at 1280×800 and at 390 px', async ({}, testInfo) => {
    // Geometry, not a pixel comparison (fonts differ between machines); the
    // screenshots are attached to the report and kept in test-results/screenshots.
    const region = page.getByRole('region', { name: 'Payments table' });
    const hint = page.getByText('Scroll sideways for every column →');
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await region.scrollIntoViewIfNeeded();
      if (viewport.width < 600) {
        // Too narrow for eight columns: the table scrolls in its own region, says so, and its end can be reached.
        await expect(hint).toBeVisible();
        await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      } else {
        await expect(hint).toBeHidden();
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the page scrolls sideways').toBeLessThanOrEqual(viewport.width);
      const last = region.getByRole('columnheader').last();
      await expect(async () => {
        const box = await region.boundingBox();
        const cell = await last.boundingBox();
        expect(box && cell, 'the table and its last header cell are laid out').toBeTruthy();
        if (!box || !cell) return;
        expect(cell.x, `the last column starts inside the table's box at ${viewport.width} px`).toBeGreaterThanOrEqual(box.x - 0.5);
        expect(cell.x + cell.width, `the last column ends inside the table's box at ${viewport.width} px`).toBeLessThanOrEqual(box.x + box.width + 0.5);
      }).toPass();
      const name = `payments-${viewport.width}`;
      await screenshot(page, 'staff', name);
      await testInfo.attach(name, { body: await region.screenshot(), contentType: 'image/png' });
    }
    await region.evaluate((el) => el.scrollTo({ left: 0 }));
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('the audit trail lists the looks and the adjustment', async () => {
    await page.goto('/staff');
    await page.getByRole('link', { name: 'Audit trail' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible();
    const table = page.getByRole('region', { name: 'Audit table' });
    const adjustment = table.getByRole('row').filter({ hasText: 'account.adjustment' });
    await expect(adjustment).toHaveCount(1);
    await expect(adjustment).toContainText(staffEmail);
    await expect(adjustment).toContainText(sellerEmail);
    await expect(adjustment).toContainText(`+25 credits: ${REASON}`);
    for (const action of ['search', 'account.view', 'account.history', 'account.balance', 'account.comparison']) {
      await expect(table.getByRole('row').filter({ hasText: action }).first()).toBeVisible();
    }
    await screenshot(page, 'staff', 'audit');
    await expectNoSeriousA11yViolations(page, 'staff audit trail');

    await page.getByLabel('Staff member (email or id)').fill(staffEmail);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(/actor=/);
    await expect(table.getByRole('row').filter({ hasText: 'account.adjustment' })).toHaveCount(1);
  });

  test('the seller writes to support, the staff member replies from the inbox, and the seller reads the reply', async () => {
    const sellerPage = await seller.newPage();
    failures.watch(sellerPage);
    await sellerPage.goto('/support');
    await sellerPage.getByLabel('Subject').fill('Where did my credits go?');
    await sellerPage.getByLabel('Message').fill('I bought 100 credits yesterday and want to check them.');
    await sellerPage.getByRole('button', { name: 'Send Message' }).click();
    await expect(toast(sellerPage, 'Support Request Submitted')).toBeVisible();
    const mine = sellerPage.getByRole('article', { name: 'Where did my credits go?' });
    await expect(mine.getByText('Waiting for support')).toBeVisible();

    await page.goto('/staff');
    await page.getByRole('link', { name: 'Support inbox' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Support inbox' })).toBeVisible();
    await page.getByLabel('Status').selectOption('open');
    await expect(page).toHaveURL(/status=open$/);
    const row = page.getByRole('region', { name: 'Support requests' }).getByRole('row').filter({ hasText: sellerEmail });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('cell').nth(4)).toHaveText('125');
    await screenshot(page, 'staff', 'support-inbox');
    await expectNoSeriousA11yViolations(page, 'staff support inbox');
    await row.getByRole('link', { name: 'Where did my credits go?' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Where did my credits go?' })).toBeVisible();
    await expect(page.getByLabel('Account summary')).toContainText(sellerEmail);

    const reply = page.getByRole('region', { name: 'Reply' });
    await reply.getByRole('button', { name: 'Send reply' }).click();
    await expect(reply.getByText('A reply message is required')).toBeVisible();
    await reply.getByLabel('Message').fill('Your 100 credits are there, and we added 25 for the trouble.');
    await reply.getByRole('button', { name: 'Send reply' }).click();
    await expect(toast(page, 'Reply sent')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Request' }).getByText('Answered')).toBeVisible();
    await screenshot(page, 'staff', 'support-thread');
    await expectNoSeriousA11yViolations(page, 'staff support thread');

    await sellerPage.reload();
    await expect(mine.getByText('Answered')).toBeVisible();
    await expect(mine.getByLabel('Reply from support')).toContainText('we added 25 for the trouble');
    await screenshot(sellerPage, 'support', 'reply');
    await sellerPage.close();
  });

  test('refunds 20 of the 100 credits through the simulated provider, with the reason on the timeline', async () => {
    const transactions = (await (await seller.request.get('/api/transactions')).json()) as { id: string; amount: number }[];
    expect(transactions).toHaveLength(1);
    await page.goto('/staff');
    await page.getByRole('searchbox', { name: 'Email or account id' }).fill(sellerEmail);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: sellerEmail }).click();
    await expect(page.getByRole('heading', { level: 1, name: sellerEmail })).toBeVisible();

    // The payment's own row opens the refund, its id filled in.
    const payment = page.getByRole('region', { name: 'Payments table' }).getByRole('row').filter({ hasText: transactions[0].id });
    await payment.getByRole('button', { name: `Refund ${transactions[0].id}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund a payment' });
    await expect(dialog.getByLabel('Payment id')).toHaveValue(transactions[0].id);
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await expect(dialog.getByText('A reason of 3 to 500 characters is required')).toBeVisible();
    await dialog.getByLabel('Credits to refund').fill('20');
    await dialog.getByLabel('Reason').fill('Refund requested through support');
    await screenshot(page, 'staff', 'refund-dialog');
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await expect(toast(page, 'Refund recorded')).toBeVisible();
    await expect(figure(page.getByRole('region', { name: 'Balance' }))).toHaveText('105 credits');
    const row = page.getByRole('region', { name: 'Timeline' }).getByRole('row').filter({ hasText: 'Reason: Refund requested through support' });
    await expect(row.filter({ hasText: 'PaymentRefunded' })).toHaveCount(1);
    await expect(row.filter({ hasText: 'PaymentRefunded' }).getByRole('cell').nth(2)).toContainText(/staff:[0-9a-f-]{36}/);
    await expect(payment.getByRole('cell').nth(6)).toHaveText('$8.00 (80 credits)');
    await screenshot(page, 'staff', 'refunded');
    await expectNoSeriousA11yViolations(page, 'staff account after the refund');
  });

  test('the audit trail lists the inbox, the thread read, the reply and the refund', async () => {
    await page.goto('/staff/audit');
    await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible();
    const table = page.getByRole('region', { name: 'Audit table' });
    const refund = table.getByRole('row').filter({ hasText: 'account.refund' });
    await expect(refund).toHaveCount(1);
    await expect(refund).toContainText(staffEmail);
    await expect(refund).toContainText(sellerEmail);
    await expect(refund).toContainText('$1.99 of payment');
    await expect(refund).toContainText('Refund requested through support');
    const reply = table.getByRole('row').filter({ hasText: 'support.reply' });
    await expect(reply).toHaveCount(1);
    await expect(reply).toContainText(sellerEmail);
    for (const action of ['support.inbox', 'support.request']) {
      await expect(table.getByRole('row').filter({ hasText: action }).first()).toBeVisible();
    }
    await screenshot(page, 'staff', 'audit-support-refund');
  });
});
