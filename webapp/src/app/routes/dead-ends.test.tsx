import { describe, expect, it, vi } from 'vitest';
import { activeProfile, plans, simulatedConfig, usage } from '@/testing/data';
import { signedOut } from '@/testing/fake-api';
import { expectNoToast, renderApp, screen, waitFor, within } from '@/testing/test-utils';

const emptyUsage = { creditsUsed: 0, rows: usage.rows.map((r) => ({ ...r, today: 0, thisWeek: 0, thisMonth: 0, total: 0 })) };

describe('empty states', () => {
  it('a new seller sees what will appear on the dashboard, not a blank table', async () => {
    renderApp('/dashboard', { 'GET /api/transactions': { body: [] }, 'GET /api/usage-statistics': { body: emptyUsage } });
    expect(await screen.findByText(/No transactions yet/)).toBeInTheDocument();
    expect(await screen.findByText(/No activity yet/)).toBeInTheDocument();
  });

  it('usage statistics that fail say so with a Retry', async () => {
    let fixed = false;
    const app = renderApp('/dashboard', {
      'GET /api/usage-statistics': () => (fixed ? { body: usage } : { status: 503, body: { message: 'down' } }),
    });
    expect(await screen.findByText('Could not load usage statistics')).toBeInTheDocument();
    fixed = true;
    await app.user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Credits used this month')).toBeInTheDocument();
  });
});

describe('contact, privacy and terms', () => {
  const page = (slug: string, markdown: string) => ({ body: { slug, title: markdown.split('\n')[0].slice(2), markdown } });

  it.each(['contact', 'privacy', 'terms'])('/%s renders the Markdown the server holds', async (slug) => {
    renderApp(`/${slug}`, { ...signedOut, [`GET /api/pages/${slug}`]: page(slug, `# Our ${slug}\n\nSome **bold** words.`) });
    expect(await screen.findByRole('heading', { level: 1, name: `Our ${slug}` })).toBeInTheDocument();
    expect(screen.getByText('bold').tagName).toBe('STRONG');
  });

  it('/docs/desktop-api renders the API guide, tables and code included, signed out', async () => {
    const app = renderApp('/docs/desktop-api', {
      ...signedOut,
      'GET /api/pages/desktop-api': page('desktop-api', '# Desktop API guide\n\n| status | `code` |\n| --- | --- |\n| 402 | `insufficient_credits` |\n\n```sh\ncurl -X POST\n```'),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Desktop API guide' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'insufficient_credits' })).toBeInTheDocument();
    expect(screen.getByText('curl -X POST').closest('pre')).not.toBeNull();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await app.user.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenCalledWith('curl -X POST');
  });

  it('the contact page adds phone support where the operator has a number', async () => {
    renderApp('/contact', {
      ...signedOut,
      'GET /api/config': { body: { ...simulatedConfig, supportPhone: '+44 20 7946 0000' } },
      'GET /api/pages/contact': page('contact', '# Contact\n\nWrite to [help@x.test](mailto:help@x.test).'),
    });
    expect(await screen.findByRole('link', { name: 'help@x.test' })).toHaveAttribute('href', 'mailto:help@x.test');
    expect(await screen.findByRole('link', { name: '+44 20 7946 0000' })).toHaveAttribute('href', 'tel:+442079460000');
  });

  it('raw HTML in the Markdown is not run', async () => {
    renderApp('/terms', { ...signedOut, 'GET /api/pages/terms': page('terms', '# Terms\n\n<img src=x onerror="alert(1)">') });
    await screen.findByRole('heading', { name: 'Terms' });
    expect(document.querySelector('img[src="x"]')).toBeNull();
  });

  it('a page that cannot load offers a Retry', async () => {
    let fixed = false;
    const app = renderApp('/privacy', {
      ...signedOut,
      'GET /api/pages/privacy': () => (fixed ? page('privacy', '# Privacy') : { status: 500, body: { message: 'x' } }),
    });
    expect(await screen.findByText('Could not load this page')).toBeInTheDocument();
    fixed = true;
    await app.user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Privacy' })).toBeInTheDocument();
  });
});

describe('the credit dialog', () => {
  async function openDialog() {
    const app = renderApp('/dashboard');
    await app.user.click(await screen.findByRole('button', { name: 'Buy More' }));
    return app;
  }

  it('refuses less than the provider minimum, with the reason, and stays', async () => {
    const app = await openDialog();
    const dialog = await screen.findByRole('dialog');
    await app.user.type(within(dialog).getByLabelText('Custom amount (credits)'), '4');
    await app.user.click(within(dialog).getByRole('button', { name: 'Continue to Checkout' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The minimum purchase is 5 credits ($0.50).');
    expectNoToast();
    expect(within(dialog).getByLabelText('Custom amount (credits)')).toHaveAttribute('aria-invalid', 'true');
  });

  it('takes the minimum itself', async () => {
    const app = await openDialog();
    const dialog = await screen.findByRole('dialog');
    await app.user.type(within(dialog).getByLabelText('Custom amount (credits)'), String(plans.minCustomCredits));
    await app.user.click(within(dialog).getByRole('button', { name: 'Continue to Checkout' }));
    expect(await screen.findByRole('heading', { name: /Checkout|Complete/i })).toBeInTheDocument();
  });
});

describe('the balance follows the desktop client', () => {
  it('moves on the dashboard without a reload', async () => {
    let credits = 1234;
    renderApp('/dashboard', { 'GET /api/user/profile': () => ({ body: { ...activeProfile, creditsAvailable: credits } }) });
    expect(await screen.findByText('1,234')).toBeInTheDocument();
    credits = 1229; // five spends through /v1 meanwhile
    await waitFor(() => expect(screen.getByText('1,229')).toBeInTheDocument(), { timeout: 8000 });
  }, 12_000);
});
