/**
 * Signed webhooks (issue 35 items 1–3) against the real server: a seller
 * adds an endpoint on the Webhooks page pointing at a receiver this test
 * starts (a plain node:http server on 127.0.0.1), buys credits (simulated
 * provider), and the receiver gets payment.succeeded and credits.granted,
 * signed with the secret the page shows (checked here with the TypeScript SDK's verifyWebhook).
 * The deliveries list shows them; Resend sends the same event again; the
 * secret is rolled; the page fits 390 px and axe finds nothing serious;
 * the endpoint is removed. Screenshots in test-results/screenshots/webhooks-<step>.png.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../sdk/typescript/dist/index.js';
import { expectNoSeriousA11yViolations } from './a11y.ts';
import { apiFailures, buyCredits, newSeller, screenshot, toast } from './support.ts';


const failures = apiFailures();
test.afterEach(async ({}, testInfo) => failures.report(testInfo));

type Received = { body: string; signature: string; delivery: string };

/**
 * Verifies an A2E-Signature header as a seller's receiver would: with the
 * TypeScript SDK's verifyWebhook (sdk/typescript, the build the repository
 * ships), which refuses a wrong signature or an old timestamp.
 */
function verify(header: string, body: string, secret: string): boolean {
  try {
    verifyWebhook(body, header, secret);
    return true;
  } catch {
    return false;
  }
}

test.describe.serial('webhooks', () => {
  const received: Received[] = [];
  let receiver: Server;
  let receiverURL = '';
  let context: BrowserContext;
  let page: Page;
  let secret = '';

  const ofType = (type: string) => received.filter((r) => (JSON.parse(r.body) as { type: string }).type === type);

  test.beforeAll(async ({ browser }) => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          body: Buffer.concat(chunks).toString('utf8'),
          signature: String(req.headers['a2e-signature'] ?? ''),
          delivery: String(req.headers['a2e-delivery-id'] ?? ''),
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverURL = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    ({ context, page } = await newSeller(browser, failures));
  });

  test.afterAll(async () => {
    await context.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  test('a URL that is not one gets its field error', async () => {
    await page.goto('/webhooks');
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    await page.getByLabel('Endpoint URL').fill('not a url');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByText('Enter a URL starting with https://')).toBeVisible();
  });

  test('adds an endpoint and shows its secret', async () => {
    await page.getByLabel('Endpoint URL').fill(receiverURL);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(toast(page, 'Endpoint added')).toBeVisible();
    const item = page.getByRole('listitem', { name: `Endpoint ${receiverURL}` });
    await expect(item).toBeVisible();
    await item.getByRole('button', { name: 'Show secret' }).click();
    secret = (await item.getByLabel('Signing secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await screenshot(page, 'webhooks', 'added');
  });

  test('buying credits delivers payment.succeeded and credits.granted, signed', async () => {
    await buyCredits(page, 100, '$9.99');
    await expect.poll(() => ofType('credits.granted').length, { timeout: 20_000 }).toBe(1);
    await expect.poll(() => ofType('payment.succeeded').length, { timeout: 20_000 }).toBe(1);
    for (const r of received) {
      expect(verify(r.signature, r.body, secret), `signature ${r.signature}`).toBe(true);
    }
    const granted = JSON.parse(ofType('credits.granted')[0].body) as { id: string; createdAt: string; data: { amount: number } };
    expect(granted.id).toMatch(/^evt_/);
    expect(granted.data.amount).toBe(100);
  });

  test('the deliveries list shows them; Resend sends the same event again', async () => {
    await page.goto('/webhooks');
    const item = page.getByRole('listitem', { name: `Endpoint ${receiverURL}` });
    await item.getByRole('button', { name: 'Show deliveries' }).click();
    const log = item.getByRole('region', { name: 'Deliveries' });
    const row = log.getByRole('row').filter({ hasText: 'credits.granted' });
    await expect(row).toContainText('delivered');
    await expect(row).toContainText('204');
    await screenshot(page, 'webhooks', 'deliveries');
    const before = ofType('credits.granted').length;
    await row.getByRole('button', { name: /^Resend credits.granted/ }).click();
    await expect(toast(page, 'Delivery queued again')).toBeVisible();
    await expect.poll(() => ofType('credits.granted').length, { timeout: 20_000 }).toBe(before + 1);
    const [first, again] = ofType('credits.granted');
    expect(again.body).toBe(first.body);
    expect(again.delivery).toBe(first.delivery);
    await expect(row).toContainText('2'); // attempts
  });

  test('rolls the secret; the page fits 390 px with no serious axe finding', async () => {
    const item = page.getByRole('listitem', { name: `Endpoint ${receiverURL}` });
    await item.getByRole('button', { name: 'Roll secret' }).click();
    await expect(toast(page, 'Secret rolled')).toBeVisible();
    await expect(item.getByLabel('Signing secret')).not.toHaveText(secret);
    await expectNoSeriousA11yViolations(page, 'webhooks');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    await page.getByRole('listitem', { name: `Endpoint ${receiverURL}` }).getByRole('button', { name: 'Show deliveries' }).click();
    await expect(page.getByRole('region', { name: 'Deliveries' })).toBeVisible();
    const width = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
    expect(width).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page, 'webhooks at 390 px');
    await screenshot(page, 'webhooks', 'mobile');
  });

  test('removes the endpoint', async () => {
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('listitem', { name: `Endpoint ${receiverURL}` }).getByRole('button', { name: 'Remove' }).click();
    await expect(toast(page, 'Endpoint removed')).toBeVisible();
    await expect(page.getByText('No endpoints yet.')).toBeVisible();
  });
});
