import { expect, type APIRequestContext, type Browser, type BrowserContext, type BrowserContextOptions, type Page, type TestInfo } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, resultsDir } from './harness.ts';

export const screenshotsDir = join(resultsDir, 'screenshots');

/** The address of the server global-setup.ts started. */
export function baseURL(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: run through `npm run e2e`');
  return url;
}

/** A full-page screenshot at test-results/screenshots/<journey>-<name>.png. */
export async function screenshot(page: Page, journey: string, name: string) {
  mkdirSync(screenshotsDir, { recursive: true });
  await page.screenshot({ path: join(screenshotsDir, `${journey}-${name}.png`), fullPage: true });
}

export function uniqueEmail(): string {
  return `seller-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
}

type CapturedMail = { to: string; subject: string; text: string; sentAt: string };

/**
 * The 6-digit code of the newest mail to `to` in the development mailbox
 * (GET /api/dev/mail?to=…, newest first), waiting for the mail to arrive.
 */
export async function verificationCode(to: string): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const response = await fetch(`${baseURL()}/api/dev/mail?to=${encodeURIComponent(to)}`);
        if (!response.ok) return `GET /api/dev/mail: ${response.status} ${await response.text()}`;
        const mails = (await response.json()) as CapturedMail[];
        const match = mails.map((m) => /\b(\d{6})\b/.exec(m.text)).find(Boolean);
        code = match?.[1] ?? '';
        return code ? 'found' : `no code among ${mails.length} mail(s)`;
      },
      { message: `a verification code mailed to ${to}` },
    )
    .toBe('found');
  return code;
}

/** Signs up through the API in this browser context (the cookie stays in it) and verifies the mailed code. */
export async function signUp(request: APIRequestContext, email: string, password: string) {
  const registered = await request.post('/api/register', { data: { email, password, confirmPassword: password } });
  expect(registered.status(), `POST /api/register: ${await registered.text()}`).toBe(201);
  const verified = await request.post('/api/auth/verify-email', { data: { code: await verificationCode(email) } });
  expect(verified.ok(), `POST /api/auth/verify-email: ${await verified.text()}`).toBe(true);
}

/**
 * Buys `count` credits through the checkout page and the simulated provider's
 * form; returns the client secret POST /api/credits/purchase answered.
 */
export async function buyCredits(page: Page, count: number, price: string): Promise<string> {
  const purchase = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/credits/purchase' && response.request().method() === 'POST',
  );
  await page.goto(`/checkout?credits=${count}`);
  const answer = await purchase;
  expect(answer.status(), `POST /api/credits/purchase: ${await answer.text()}`).toBe(200);
  const { clientSecret } = (await answer.json()) as { clientSecret: string };
  expect(clientSecret).toBeTruthy();
  await page.getByRole('button', { name: `Pay ${price}` }).click();
  await expect(page).toHaveURL(/\/checkout\/success\?/);
  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
  return clientSecret;
}

/** The signed-in seller's desktop API key, from the profile. */
export async function apiKeyOf(request: APIRequestContext): Promise<string> {
  const profile = await request.get('/api/user/profile');
  const apiKey = ((await profile.json()) as { apiKey: string }).apiKey;
  expect(apiKey).toBeTruthy();
  return apiKey;
}

/** The password every journey's seller signs up with. */
export const PASSWORD = 'Correct-Horse-42!';

/** A journey's seller: its own browser context (signed in), a page watched for API failures, its address and key. */
export type Seller = { context: BrowserContext; page: Page; email: string; apiKey: string };

/**
 * A new verified seller in a new browser context, its page watched by
 * `failures`; with `credits`, it buys that pack through the checkout page
 * and the simulated provider, and its desktop API key is read (else apiKey
 * is '').
 */
export async function newSeller(
  browser: Browser,
  failures: { watch(page: Page): void },
  options: { credits?: { count: number; price: string }; contextOptions?: BrowserContextOptions } = {},
): Promise<Seller> {
  const email = uniqueEmail();
  const context = await browser.newContext({ baseURL: baseURL(), ...options.contextOptions });
  const page = await context.newPage();
  failures.watch(page);
  await signUp(context.request, email, PASSWORD);
  if (!options.credits) return { context, page, email, apiKey: '' };
  await buyCredits(page, options.credits.count, options.credits.price);
  return { context, page, email, apiKey: await apiKeyOf(context.request) };
}

/** POST /v1/listings with the desktop client's key. */
export async function createListing(apiKey: string, amazonUrl: string) {
  const response = await fetch(`${baseURL()}/v1/listings`, {
    method: 'POST',
    headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ amazonUrl }),
  });
  return { status: response.status, body: await response.text() };
}

export type SnippetCommand = 'bash' | 'node' | 'python3' | 'php' | 'go';

/**
 * Runs an example as a seller would save and run it, in a fresh folder;
 * 'missing' when the machine lacks the command. The SDK examples find the
 * repository's SDKs as an install would give them: the TypeScript SDK (built
 * by `make sdk-tools`) in node_modules, the Python one on PYTHONPATH, the PHP
 * one at sdk/php/autoload.php from the folder it runs in, and the Go module
 * through a replace directive.
 */
export function runSnippet(command: SnippetCommand, code: string): { output: string; stderr: string } | 'missing' {
  if (spawnSync(command, [command === 'go' ? 'version' : '--version']).error) return 'missing';
  const dir = mkdtempSync(join(tmpdir(), 'snippet-'));
  const file = join(dir, { bash: 'listing.sh', node: 'listing.mjs', python3: 'listing.py', php: 'listing.php', go: 'main.go' }[command]);
  writeFileSync(file, code);
  mkdirSync(join(dir, 'node_modules', '@a2e-automation'), { recursive: true });
  symlinkSync(join(repoRoot, 'sdk', 'typescript'), join(dir, 'node_modules', '@a2e-automation', 'sdk'));
  symlinkSync(join(repoRoot, 'sdk'), join(dir, 'sdk'));
  writeFileSync(
    join(dir, 'go.mod'),
    `module snippet\n\ngo 1.22\n\nrequire github.com/a2e-automation/app/sdk/go v0.0.0\n\nreplace github.com/a2e-automation/app/sdk/go => ${join(repoRoot, 'sdk', 'go')}\n`,
  );
  try {
    const args = command === 'go' ? ['run', '.'] : [file];
    const env = { ...process.env, PYTHONPATH: join(repoRoot, 'sdk', 'python'), GOFLAGS: '-mod=mod' };
    const run = spawnSync(command, args, { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
    return { output: run.stdout, stderr: run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figure on the dashboard's Credits Available card. */
export function creditsAvailable(page: Page) {
  return page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Credits Available' }) })
    .getByText(/^\d[\d,]*$/);
}

/** The dashboard's Subscription Status card. */
export function subscriptionCard(page: Page) {
  return page.locator('section').filter({ has: page.getByRole('heading', { name: 'Subscription Status' }) });
}

/** A toast with this title in the notifications region. */
export function toast(page: Page, title: string) {
  return page.getByRole('region', { name: /Notifications/ }).getByText(title, { exact: true });
}

/**
 * Records the /api and /v1 responses with an error status on the pages it
 * watches; report() attaches those of a failed test to its result, where
 * the list reporter prints them. A Content-Security-Policy violation on a
 * watched page fails the test: the server's policy must fit the real app.
 */
export function apiFailures() {
  let seen: string[] = [];
  let cspViolations: string[] = [];
  return {
    watch(page: Page) {
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
          cspViolations.push(`${page.url()}: ${message.text()}`);
        }
      });
      page.on('response', async (response) => {
        const { pathname } = new URL(response.url());
        if (response.status() < 400 || !/^\/(api|v1)\//.test(pathname)) return;
        const body = await response.text().catch(() => '(no body)');
        seen.push(`${response.request().method()} ${pathname} -> ${response.status()} ${body.slice(0, 500)}`);
      });
    },
    async report(testInfo: TestInfo) {
      if (testInfo.status !== testInfo.expectedStatus && seen.length > 0) {
        await testInfo.attach('API calls that failed', { body: seen.join('\n'), contentType: 'text/plain' });
      }
      seen = [];
      const violations = cspViolations;
      cspViolations = [];
      if (violations.length > 0) {
        throw new Error(`Content-Security-Policy violations:\n${violations.join('\n')}`);
      }
    },
  };
}

/**
 * Every error the page logs to its console (failed requests included, as
 * Chromium reports a 4xx or 5xx answer there) and every uncaught exception,
 * from now on.
 */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}

/**
 * Brings in the dashboard's deferred cards (chart, spend limits, alerts,
 * auto-recharge), which load when they come near the viewport (issue 38):
 * scrolls each grey placeholder (data-deferred) into view until none is
 * left, once the page has loaded its data. On a page without one it
 * returns then.
 */
export async function loadDeferredCards(page: Page) {
  // The placeholders come with the page's data (the skeleton before it has none).
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
  const waiting = page.locator('[data-deferred]');
  await expect(async () => {
    const left = await waiting.count();
    if (left > 0) await waiting.first().scrollIntoViewIfNeeded({ timeout: 2_000 });
    expect(left, 'deferred cards not loaded yet').toBe(0);
  }).toPass();
}
