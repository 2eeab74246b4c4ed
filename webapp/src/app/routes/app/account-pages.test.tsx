import { beforeEach, describe, expect, it, vi } from 'vitest';
import { activeProfile, inactiveProfile, receipt, simulatedConfig } from '@/testing/data';
import { findToast, renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { navigateTo } from '@/lib/browser';
import { maskSecret } from '@/components/ui/secret-field';

// navigateTo is setup.ts's recorded stand-in (a full-page navigation).

describe('subscription', () => {
  it('shows the status card with the next billing date', async () => {
    renderApp('/subscription');
    expect(await screen.findByRole('heading', { name: 'Subscription Status' })).toBeInTheDocument();
    expect(screen.getByText('Active')).toHaveClass('badge-success');
    expect(screen.getByText('Next billing date: March 15, 2025')).toBeInTheDocument();
    expect(await screen.findByText('Monthly Plan')).toBeInTheDocument();
    expect(screen.getByText('$29.99 / month')).toBeInTheDocument();
    for (const benefit of ['500 credits per month', 'Full software access', 'API access', 'Priority email support', 'Regular updates']) {
      expect(screen.getByText(benefit)).toBeInTheDocument();
    }
  });

  it.each([
    ['cancelled', 'Cancelled', 'badge-neutral'],
    ['past_due', 'Past Due', 'badge-danger'],
    ['inactive', 'Inactive', 'badge-warning'],
    [null, 'Inactive', 'badge-warning'],
  ])('shows status %s as %s', async (status, label, tone) => {
    renderApp('/subscription', { 'GET /api/user/profile': { body: { ...inactiveProfile, subscriptionStatus: status } } });
    expect(await screen.findByText(label, { selector: '.badge' })).toHaveClass(tone);
    // Only a subscription that runs can be cancelled (past due: at once).
    expect(screen.queryAllByRole('button', { name: 'Cancel' })).toHaveLength(status === 'past_due' ? 1 : 0);
  });

  it('cancels after confirmation and refetches the profile: active until the period ends', async () => {
    let status = 'active';
    const app = renderApp('/subscription', {
      'GET /api/user/profile': () => ({
        body: { ...activeProfile, subscriptionStatus: status, subscriptionEndsAt: status === 'cancelling' ? '2025-03-15T12:00:00Z' : null },
      }),
      'POST /api/subscription/cancel': () => {
        status = 'cancelling';
        return { body: { message: 'Subscription cancelled' } };
      },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Subscription' });
    expect(dialog).toHaveTextContent('lose access to premium features at the end of your current billing period');
    await app.user.click(within(dialog).getByRole('button', { name: 'Keep Subscription' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(app.callsTo('POST', '/api/subscription/cancel')).toHaveLength(0);

    await app.user.click(screen.getByRole('button', { name: 'Cancel' }));
    await app.user.click(await screen.findByRole('button', { name: 'Yes, Cancel' }));
    expect(await findToast('Subscription Cancelled')).toBeInTheDocument();
    expect(screen.getByText('Your subscription has been cancelled successfully.')).toBeInTheDocument();
    expect(await screen.findByText('Active until March 15, 2025', { selector: '.badge' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resume Subscription' })).toBeInTheDocument();
  });

  it('reports a failed cancel', async () => {
    const app = renderApp('/subscription', { 'POST /api/subscription/cancel': { status: 500, body: '' } });
    await app.user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await app.user.click(await screen.findByRole('button', { name: 'Yes, Cancel' }));
    expect(await findToast('Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to cancel subscription.')).toBeInTheDocument();
  });

  it('subscribes inline and returns to the status card', async () => {
    let status = 'inactive';
    const app = renderApp('/subscription', {
      'GET /api/user/profile': () => ({ body: { ...inactiveProfile, subscriptionStatus: status } }),
      'POST /api/subscription/create': { body: { clientSecret: 'pi_sub_secret' } },
      'POST /api/dev/payments/confirm': () => {
        status = 'active';
        return { body: { status: 'succeeded' } };
      },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Manage Subscription' }));
    expect(await screen.findByRole('heading', { name: 'Subscribe to Monthly Plan' })).toBeInTheDocument();
    await app.user.click(await screen.findByRole('button', { name: 'Subscribe' }));
    expect(await findToast('Subscription Successful')).toBeInTheDocument();
    expect(await screen.findByText('Active', { selector: '.badge' })).toBeInTheDocument();
    expect(app.location()).toBe('/subscription');
  });

  it('returns to the status card on Cancel', async () => {
    const app = renderApp('/subscription', {
      'GET /api/user/profile': { body: inactiveProfile },
      'POST /api/subscription/create': { body: { clientSecret: 'pi_sub_secret' } },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Manage Subscription' }));
    await app.user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'Subscription Status' })).toBeInTheDocument();
  });

  it('reports a subscription that cannot be set up', async () => {
    const app = renderApp('/subscription', {
      'GET /api/user/profile': { body: inactiveProfile },
      'POST /api/subscription/create': { status: 400, body: { message: 'Already subscribed' } },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Manage Subscription' }));
    expect(await findToast('Error')).toBeInTheDocument();
    expect(screen.getByText('Already subscribed')).toBeInTheDocument();
  });
});

describe('api keys', () => {
  it('masks the key until shown, and hides it again', async () => {
    const app = renderApp('/api-keys');
    const field = await screen.findByRole('textbox', { name: 'API Key' });
    expect(field).toHaveValue(maskSecret('a2e_live_abc123'));
    expect(field).not.toHaveValue('a2e_live_abc123');
    const show = screen.getByRole('button', { name: 'Show API key' });
    expect(show).toHaveAttribute('aria-pressed', 'false');
    await app.user.click(show);
    expect(field).toHaveValue('a2e_live_abc123');
    expect(screen.getByRole('button', { name: 'Hide API key' })).toHaveAttribute('aria-pressed', 'true');
    await app.user.click(screen.getByRole('button', { name: 'Hide API key' }));
    expect(field).toHaveValue(maskSecret('a2e_live_abc123'));
  });

  it('copies the key (masked or not) with a 2 second copied state', async () => {
    const app = renderApp('/api-keys');
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await app.user.click(await screen.findByRole('button', { name: 'Copy API key' }));
    expect(writeText).toHaveBeenCalledWith('a2e_live_abc123');
    expect(await findToast('API Key Copied')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copy API key' })).toBeInTheDocument(), {
      timeout: 3000,
    });
  });

  it('regenerates after confirmation and shows the new key', async () => {
    let key = 'a2e_live_abc123';
    const app = renderApp('/api-keys', {
      'GET /api/user/profile': () => ({ body: { ...activeProfile, apiKey: key } }),
      'POST /api/user/api-key/regenerate': () => {
        key = 'a2e_live_new999';
        return { body: { apiKey: key, message: 'ok' } };
      },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Regenerate API Key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Regenerate API Key' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Regenerate' }));
    expect(await findToast('API Key Regenerated')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByDisplayValue(maskSecret('a2e_live_new999'))).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Show API key' }));
    expect(screen.getByDisplayValue('a2e_live_new999')).toBeInTheDocument();
  });

  it('reports a failed regeneration', async () => {
    const app = renderApp('/api-keys', { 'POST /api/user/api-key/regenerate': { status: 500, body: '' } });
    await app.user.click(await screen.findByRole('button', { name: 'Regenerate API Key' }));
    await app.user.click(await screen.findByRole('button', { name: 'Regenerate' }));
    expect(await findToast('Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to regenerate API key.')).toBeInTheDocument();
  });

  it('documents the API', async () => {
    renderApp('/api-keys');
    expect(await screen.findByText('X-API-Key')).toBeInTheDocument();
    expect(screen.getByText('POST /v1/listings')).toBeInTheDocument();
    expect(screen.getByText('1 credit per request')).toBeInTheDocument();
    expect(screen.getByText('20 requests per minute')).toBeInTheDocument();
    expect(screen.getByText(/SDKs for Node.js, Python, PHP and Go/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Desktop API guide' })).toHaveAttribute('href', '/docs/desktop-api');
    expect(screen.getByRole('link', { name: 'OpenAPI document' })).toHaveAttribute('href', '/v1/openapi.json');
  });

  it("takes the rate limit and the address from the server, and shows examples with the seller's key", async () => {
    const app = renderApp('/api-keys', {
      'GET /api/config': { body: { ...simulatedConfig, rateLimitPerMinute: 45, apiBaseUrl: 'https://api.seller.test' } },
    });
    expect(await screen.findByText('45 requests per minute')).toBeInTheDocument();
    expect(screen.getByText('https://api.seller.test/v1')).toBeInTheDocument();
    const curl = screen.getByLabelText('curl example');
    expect(curl).toHaveTextContent('curl -X POST https://api.seller.test/v1/listings');
    const masked = maskSecret(activeProfile.apiKey);
    expect(curl).toHaveTextContent(`X-API-Key: ${masked}`);
    expect(curl).not.toHaveTextContent(activeProfile.apiKey);
    expect(curl).toHaveTextContent('Idempotency-Key: $(uuidgen');
    await app.user.click(screen.getByRole('tab', { name: 'PowerShell' }));
    const powershell = await screen.findByLabelText('PowerShell example');
    expect(powershell).toHaveTextContent("Invoke-RestMethod -Method Post -Uri 'https://api.seller.test/v1/listings'");
    expect(powershell).toHaveTextContent(masked);
    for (const [tab, needle] of [
      ['Node.js', "new Client({ apiKey: '" + masked + "', baseUrl: 'https://api.seller.test' })"],
      ['Python', 'a2e.Client(api_key="' + masked + '", base_url="https://api.seller.test")'],
      ['PHP', "new \\A2E\\Client(['api_key' => '" + masked + "', 'base_url' => 'https://api.seller.test'])"],
      ['Go', 'a2e.NewClient("' + masked + '", a2e.WithBaseURL("https://api.seller.test"))'],
    ]) {
      await app.user.click(screen.getByRole('tab', { name: tab }));
      expect(await screen.findByLabelText(`${tab} example`)).toHaveTextContent(needle);
    }
    // Shown masked, copied with the key itself: the example runs as copied.
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await app.user.click(screen.getByRole('button', { name: 'Copy Go example' }));
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining(`a2e.NewClient("${activeProfile.apiKey}"`));
    expect(await findToast('Copied')).toBeInTheDocument();
  });
});

describe('support', () => {
  it('validates subject and message', async () => {
    const app = renderApp('/support');
    await app.user.type(await screen.findByLabelText('Subject'), 'Hi');
    await app.user.type(screen.getByLabelText('Message'), 'Too short');
    await app.user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Subject is required')).toBeInTheDocument();
    expect(screen.getByText('Please provide more details')).toBeInTheDocument();
    expect(screen.getByLabelText('Message')).toHaveClass('input-invalid');
  });

  it('sends the request, says Sending..., toasts and resets', async () => {
    let answer: (reply: { status: number; body: unknown }) => void = () => {};
    const app = renderApp('/support', {
      'POST /api/support/requests': () => new Promise((resolve) => (answer = resolve)),
    });
    await app.user.type(await screen.findByLabelText('Subject'), 'Billing question');
    await app.user.type(screen.getByLabelText('Message'), 'How do purchased credits expire?');
    await app.user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    expect(app.callsTo('POST', '/api/support/requests')[0].body).toEqual({
      subject: 'Billing question',
      message: 'How do purchased credits expire?',
    });
    answer({ status: 201, body: { message: 'Received' } });
    expect(await findToast('Support Request Submitted')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Subject')).toHaveValue(''));
    expect(screen.getByLabelText('Message')).toHaveValue('');
  });

  it("shows the server's refusal (unverified, over the limit) and keeps what was typed", async () => {
    const app = renderApp('/support', {
      'POST /api/support/requests': {
        status: 403,
        body: { code: 'forbidden', message: 'Please verify your email address before contacting support.', requestId: 'r1' },
      },
    });
    await app.user.type(await screen.findByLabelText('Subject'), 'Billing question');
    await app.user.type(screen.getByLabelText('Message'), 'How do purchased credits expire?');
    await app.user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await findToast('Error')).toBeInTheDocument();
    expect(screen.getByText('Please verify your email address before contacting support.')).toBeInTheDocument();
    expect(screen.getByLabelText('Subject')).toHaveValue('Billing question');
  });

  it('shows the contact details the server is configured with', async () => {
    renderApp('/support', {
      'GET /api/config': { body: { ...simulatedConfig, supportEmail: 'care@shop.test', supportPhone: '+1 (555) 010-0199' } },
    });
    expect(await screen.findByRole('link', { name: 'care@shop.test' })).toHaveAttribute('href', 'mailto:care@shop.test');
    expect(screen.getByRole('link', { name: '+1 (555) 010-0199' })).toHaveAttribute('href', 'tel:+15550100199');
    expect(screen.getByText(/Monday-Friday 9am-5pm EST/)).toBeInTheDocument();
    expect(screen.getByText(/within 24 hours/)).toBeInTheDocument();
  });

  it('promises no phone support without a number', async () => {
    renderApp('/support');
    expect(await screen.findByRole('link', { name: simulatedConfig.supportEmail })).toBeInTheDocument();
    expect(screen.queryByText(/Phone support/)).not.toBeInTheDocument();
  });
});

describe('download', () => {
  beforeEach(() => vi.mocked(navigateTo).mockClear());

  it('needs an active subscription', async () => {
    const app = renderApp('/download', { 'GET /api/user/profile': { body: inactiveProfile } });
    expect(await screen.findByRole('heading', { name: 'Active Subscription Required' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Subscription' })).toHaveAttribute('href', '/subscription');
    expect(screen.getByText('An active subscription is required to download')).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Subscription Required' }));
    expect(await findToast('Subscription Required')).toBeInTheDocument();
    expect(screen.getByText('You need an active subscription to download the software')).toBeInTheDocument();
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it('downloads the Windows installer with a 1.5 second busy state', async () => {
    const link = { url: '/api/download/windows?token=t0k3n', fileName: 'A2E-Automation-Setup-2.4.0.exe', expiresAt: '2030-01-01T00:00:00Z' };
    const app = renderApp('/download', { 'POST /api/download/windows/link': { body: link } });
    expect(await screen.findByText('Version 2.4.0 · 14.2 MB')).toBeInTheDocument();
    expect(screen.getByText(simulatedConfig.installer!.sha256)).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Download for Windows' }));
    expect(screen.getByRole('button', { name: 'Downloading...' })).toBeDisabled();
    expect(await findToast('Download Started')).toBeInTheDocument();
    expect(navigateTo).toHaveBeenCalledWith(link.url);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Download for Windows' })).toBeEnabled(), {
      timeout: 3000,
    });
  });

  it.each([
    [503, 'Download Failed', 'There was an issue starting your download. Please try again later.'],
    [403, 'Subscription Required', 'You need an active subscription to download the software'],
  ])('a %i from the server stays in the app with the %s toast', async (status, title, description) => {
    const app = renderApp('/download', { 'POST /api/download/windows/link': { status, body: { message: 'no' } } });
    await app.user.click(await screen.findByRole('button', { name: 'Download for Windows' }));
    expect(await findToast(title)).toBeInTheDocument();
    expect(screen.getByText(description)).toBeInTheDocument();
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it('says the Mac version is coming soon, once, in a row with its own icon', async () => {
    const app = renderApp('/download');
    const comingSoon = await screen.findByRole('button', { name: 'Coming Soon' });
    expect(screen.getAllByText('Coming Soon')).toHaveLength(1);
    const macRow = screen.getByText('Mac', { selector: 'strong' }).closest('.download-row')!;
    expect(macRow.querySelector('svg.lucide-apple')).not.toBeNull();
    expect(macRow.querySelector('svg.lucide-monitor')).toBeNull();
    await app.user.click(comingSoon);
    expect(await findToast('Mac Version')).toBeInTheDocument();
    expect(screen.getByText("The Mac version is coming soon. We'll notify you when it's available!")).toBeInTheDocument();
  });
});

describe('transactions', () => {
  it('lists dates, amounts in dollars, statuses and invoices', async () => {
    renderApp('/transactions');
    const row = (await screen.findByText('Jan 05, 2025')).closest('tr')!;
    expect(within(row).getByText('$9.99')).toBeInTheDocument();
    expect(within(row).getByText('Failed')).toHaveClass('badge-danger');
    expect(screen.getAllByText('Paid')[0]).toHaveClass('badge-success');
    expect(screen.getByText('Pending')).toHaveClass('badge-outline');
    // A subscription payment: Stripe's hosted invoice, in a new tab.
    const invoice = screen.getByRole('link', { name: /Invoice\s+for Monthly Plan/ });
    expect(invoice).toHaveAttribute('href', 'https://invoice.stripe.com/i/in_t1');
    expect(invoice).toHaveAttribute('target', '_blank');
    // A paid credit purchase: our printable receipt, in the app.
    const receipt = screen.getByRole('link', { name: /Receipt\s*for Credit purchase: 500 credits/ });
    expect(receipt).toHaveAttribute('href', '/receipts/pi_t4');
    expect(receipt).not.toHaveAttribute('target');
    expect(screen.getAllByRole('link', { name: /^(Invoice|Receipt)/ })).toHaveLength(2);
    for (const header of ['Date', 'Description', 'Amount', 'Status', 'Invoice']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    // A row without one (failed, pending) says so to a screen reader, not only with a dash.
    expect(within(row).getByText('No invoice')).toHaveClass('sr-only');
    const pending = screen.getByText('Pending').closest('tr')!;
    expect(within(pending).getByText('No invoice')).toHaveClass('sr-only');
    expect(within(pending).queryByRole('link')).toBeNull();
    // The FAQ says what the column holds.
    expect(screen.getByText(/credit purchases link to a printable receipt/)).toBeInTheDocument();
  });

  it('opens a credit purchase receipt from its row', async () => {
    const app = renderApp('/transactions', { 'GET /api/transactions/pi_t4': { body: receipt } });
    await app.user.click(await screen.findByRole('link', { name: /Receipt\s*for Credit purchase: 500 credits/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Receipt' })).toBeInTheDocument();
    expect(screen.getByText('$39.99 USD')).toBeInTheDocument();
    expect(app.location()).toBe('/receipts/pi_t4');
  });

  it('says when there are none', async () => {
    renderApp('/transactions', { 'GET /api/transactions': { body: [] } });
    expect(await screen.findByText('No transactions found')).toBeInTheDocument();
  });
});

describe('tutorials', () => {
  it('shows the categories, beginner first', async () => {
    const app = renderApp('/usage-history');
    const beginner = await screen.findByRole('tab', { name: 'Beginner Guides' });
    expect(beginner).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('heading', { name: 'Featured Tutorials' })).toBeInTheDocument();
    await app.user.click(screen.getByRole('tab', { name: 'Analytics & Reporting' }));
    expect(await screen.findByRole('heading', { name: 'Exporting Reports' })).toBeInTheDocument();
  });
});
