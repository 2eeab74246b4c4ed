import { describe, expect, it } from 'vitest';
import { activeProfile } from '@/testing/data';
import type { Call } from '@/testing/fake-api';
import { findToast, renderApp, screen, waitFor, within } from '@/testing/test-utils';

/** The dashboard's Alerts section (issue 33), the whole app around it. */
async function alertsForm() {
  return within(await screen.findByRole('form', { name: 'Alerts' }));
}

describe('the Alerts section', () => {
  it('shows the saved settings and saves new ones as integers, blank as null', async () => {
    let saved: unknown = null;
    const app = renderApp('/dashboard', {
      'GET /api/account/alerts': { body: { lowBalanceCredits: 100, expiringReminderDays: null } },
      'PUT /api/account/alerts': (call: Call) => {
        saved = call.body;
        return { body: call.body };
      },
    });
    const form = await alertsForm();
    const low = form.getByLabelText('Low balance alert (credits)');
    await waitFor(() => expect(low).toHaveValue('100'));
    expect(form.getByLabelText('Expiry reminder (days before)')).toHaveValue('');
    await app.user.clear(low);
    await app.user.type(low, '50');
    await app.user.type(form.getByLabelText('Expiry reminder (days before)'), '3');
    await app.user.click(form.getByRole('button', { name: 'Save Alerts' }));
    expect(await findToast('Alerts Saved')).toBeInTheDocument();
    expect(saved).toEqual({ lowBalanceCredits: 50, expiringReminderDays: 3 });
    await app.user.clear(low);
    await app.user.click(form.getByRole('button', { name: 'Save Alerts' }));
    await waitFor(() => expect(saved).toEqual({ lowBalanceCredits: null, expiringReminderDays: 3 }));
  });

  it('refuses negative, fractional, absurd and out-of-range values before sending', async () => {
    const app = renderApp('/dashboard');
    const form = await alertsForm();
    const low = form.getByLabelText('Low balance alert (credits)');
    const days = form.getByLabelText('Expiry reminder (days before)');
    for (const [lowValue, daysValue] of [
      ['-5', '31'],
      ['2.5', '0'],
      ['10000001', 'abc'],
    ]) {
      await app.user.clear(low);
      await app.user.type(low, lowValue);
      await app.user.clear(days);
      await app.user.type(days, daysValue);
      await app.user.click(form.getByRole('button', { name: 'Save Alerts' }));
      expect(await form.findByText('Enter a whole number of credits from 0 to 10,000,000, or leave it blank.')).toBeInTheDocument();
      expect(form.getByText('Enter a whole number of days from 1 to 30, or leave it blank.')).toBeInTheDocument();
    }
    expect(app.callsTo('PUT', '/api/account/alerts')).toHaveLength(0);
  });

  it('shows the server’s refusal on its field', async () => {
    const message = 'Verify your email address before you set alerts';
    const app = renderApp('/dashboard', {
      'PUT /api/account/alerts': { status: 400, body: { code: 'invalid_request', message, errors: { lowBalanceCredits: message } } },
    });
    const form = await alertsForm();
    await app.user.type(form.getByLabelText('Low balance alert (credits)'), '10');
    await app.user.click(form.getByRole('button', { name: 'Save Alerts' }));
    expect(await form.findByText(message)).toBeInTheDocument();
  });
});

describe('the low-balance banner', () => {
  it('shows while the profile says lowBalance, with the threshold', async () => {
    renderApp('/dashboard', {
      'GET /api/user/profile': { body: { ...activeProfile, creditsAvailable: 9, lowBalance: true } },
      'GET /api/account/alerts': { body: { lowBalanceCredits: 10, expiringReminderDays: null } },
    });
    const banner = await screen.findByRole('note', { name: 'Low balance' });
    await waitFor(() => expect(banner).toHaveTextContent('Your credits are running low: 9 credits left, below your alert at 10.'));
  });

  it('is absent otherwise', async () => {
    renderApp('/dashboard');
    expect(await screen.findByText('1,234')).toBeInTheDocument();
    expect(screen.queryByRole('note', { name: 'Low balance' })).not.toBeInTheDocument();
  });
});
