/**
 * Usage per day and the CSV exports (issue 35, items 5 and 6) against the
 * real server: a seller subscribes, spends through /v1 with their key, the
 * dashboard's daily usage chart shows today's spends (live, its table
 * alternative too), and both CSVs download through the browser and hold
 * the rows the pages show. Screenshots in
 * test-results/screenshots/usage-<step>.png.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type BrowserContext, type Download, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y.ts';
import { apiFailures, createListing, creditsAvailable, loadDeferredCards, newSeller, screenshot, subscriptionCard } from './support.ts';

const AMAZON_URL = 'https://www.amazon.com/dp/B08N5WRWNW';
const SPENDS = 3;

const failures = apiFailures();
test.afterEach(async ({}, testInfo) => failures.report(testInfo));

/** RFC 4180 records of a CSV text (quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\r' && text[i + 1] === '\n') {
      endField();
      rows.push(row);
      row = [];
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    endField();
    rows.push(row);
  }
  return rows;
}

/** Clicks `link` and returns the download's name and its rows. */
async function download(page: Page, linkName: string): Promise<{ name: string; rows: string[][] }> {
  const started = page.waitForEvent('download');
  await page.getByRole('link', { name: linkName }).click();
  const file: Download = await started;
  expect(await file.failure()).toBeNull();
  return { name: file.suggestedFilename(), rows: parseCsv(await readFile((await file.path())!, 'utf8')) };
}

const today = () => new Date().toISOString().slice(0, 10);

test.describe.serial('usage', () => {
  let context: BrowserContext;
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    ({ context, page } = await newSeller(browser, failures, { contextOptions: { acceptDownloads: true } }));
  });

  test.afterAll(async () => {
    await context.close();
  });

  test("spends through /v1; the dashboard's daily usage chart shows today's spends", async () => {
    await page.goto('/subscribe');
    await page.getByRole('button', { name: /^Subscribe for / }).click();
    await expect(page).toHaveURL(/\/subscribe\/success$/);
    await page.goto('/dashboard');
    await loadDeferredCards(page);
    await expect(subscriptionCard(page).getByText('Active', { exact: true })).toBeVisible();
    await expect(creditsAvailable(page)).toHaveText('500');
    const chart = page.getByRole('img', { name: /^Credits used per day/ });
    await expect(chart).toHaveAccessibleName(/0 credits in all/);

    const profile = await context.request.get('/api/user/profile');
    const { apiKey } = (await profile.json()) as { apiKey: string };
    for (let i = 0; i < SPENDS; i++) {
      const created = await createListing(apiKey, AMAZON_URL);
      expect(created.status, `POST /v1/listings: ${created.body}`).toBe(201);
    }
    // The open dashboard follows without a reload.
    await expect(chart).toHaveAccessibleName(new RegExp(`${SPENDS} credits in all, at most ${SPENDS} a day`), { timeout: 15_000 });
    await expect(chart.locator(`rect[data-date="${today()}"]`)).toHaveAttribute('data-credits', String(SPENDS));
    await expect(page.getByText(`${SPENDS} credits used, ${SPENDS} listings, 0 VeRO checks, 0 credits refunded`)).toBeVisible();

    // Keyboard: the chart takes focus and the arrow keys read the days out.
    await chart.focus();
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByText('0 credits used, 0 listings, 0 VeRO checks, 0 credits refunded')).toBeVisible();
    await page.keyboard.press('End');
    await page.getByText('Show as a table').click();
    const table = page.getByRole('region', { name: 'Daily usage table' });
    await expect(table.getByRole('row')).toHaveCount(31);
    await expect(table.getByRole('row').last().getByRole('cell').first()).toHaveText(String(SPENDS));
    await screenshot(page, 'usage', 'dashboard-chart');
    await expectNoSeriousA11yViolations(page, 'dashboard with the daily usage chart');
  });

  test('downloads the daily usage CSV: 30 days, today with the spends', async () => {
    const { name, rows } = await download(page, 'Download CSV');
    expect(name).toMatch(new RegExp(`^usage-daily-\\d{4}-\\d{2}-\\d{2}-to-${today()}\\.csv$`));
    expect(rows[0]).toEqual(['date', 'credits', 'listings', 'veroChecks', 'refunded']);
    expect(rows).toHaveLength(31);
    expect(rows[30]).toEqual([today(), String(SPENDS), String(SPENDS), '0', '0']);
    expect(rows.slice(1, 30).every((r) => r.slice(1).every((v) => v === '0'))).toBe(true);
  });

  test('downloads the transactions CSV: the rows the transactions page shows', async () => {
    await page.goto('/transactions');
    const table = page.getByRole('region', { name: 'Transactions table' });
    await expect(table.getByRole('row')).not.toHaveCount(0);
    const shown = await table.getByRole('row').count(); // with the header
    await screenshot(page, 'usage', 'transactions');
    const { name, rows } = await download(page, 'Download CSV (last 12 months)');
    expect(name).toMatch(new RegExp(`^transactions-\\d{4}-\\d{2}-\\d{2}-to-${today()}\\.csv$`));
    expect(rows[0]).toEqual(['id', 'transactionDate', 'description', 'amount', 'currency', 'status', 'invoiceUrl']);
    expect(rows).toHaveLength(shown);
    for (const row of rows.slice(1)) {
      await expect(table.getByRole('cell', { name: row[2], exact: true }).first()).toBeVisible();
      expect(row[3]).toMatch(/^\d+\.\d{2}$/);
      expect(row[4]).toBe('USD');
      expect(row[1].slice(0, 10)).toBe(today());
    }
    expect(rows.slice(1).some((r) => r[5] === 'paid')).toBe(true);
  });
});
