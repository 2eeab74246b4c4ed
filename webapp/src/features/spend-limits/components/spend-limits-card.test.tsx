import { describe, expect, it } from 'vitest';
import { noSpendLimits } from '@/testing/data';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';

const reachedToday = {
  ...noSpendLimits,
  dailyCredits: 3,
  spentToday: 3,
  spentThisMonth: 7,
  dailyLimitReached: true,
};

describe('SpendLimitsCard on the dashboard', () => {
  it('says when the daily limit is reached, what was spent and when it resets', async () => {
    renderApp('/dashboard', { 'GET /api/account/spend-limits': { body: reachedToday } });
    const notice = await screen.findByRole('status', { name: 'Spend limit reached' });
    expect(notice).toHaveTextContent('Daily spend limit reached: 3 of 3 credits spent today');
    expect(notice).toHaveTextContent('spend_limit_reached');
    expect(notice).toHaveTextContent('Mar 2, 2025, 12:00 AM UTC');
    expect(screen.getByText('3 of 3 credits (resets Mar 2, 2025, 12:00 AM UTC)')).toBeInTheDocument();
    expect(screen.getByText('7 credits (no limit)')).toBeInTheDocument();
    expect(screen.getByLabelText('Daily limit (credits)')).toHaveValue('3');
  });

  it('shows no notice while no limit is reached', async () => {
    renderApp('/dashboard');
    expect(await screen.findByLabelText('Daily limit (credits)')).toHaveValue('');
    expect(screen.queryByRole('status', { name: 'Spend limit reached' })).not.toBeInTheDocument();
  });

  it('refuses a negative, a fractional or an absurd limit before sending it', async () => {
    const app = renderApp('/dashboard');
    const daily = await screen.findByLabelText('Daily limit (credits)');
    const form = screen.getByRole('form', { name: 'Spend limits' });
    await app.user.type(daily, '-1');
    await app.user.type(screen.getByLabelText('Monthly limit (credits)'), '10000001');
    await app.user.click(within(form).getByRole('button', { name: 'Save limits' }));
    expect(await within(form).findByText('Enter a whole number of credits, or leave it empty for no limit')).toBeInTheDocument();
    expect(within(form).getByText('At most 10,000,000 credits')).toBeInTheDocument();
    await app.user.clear(daily);
    await app.user.type(daily, '1.5');
    await app.user.click(within(form).getByRole('button', { name: 'Save limits' }));
    expect(await within(form).findByText('Enter a whole number of credits, or leave it empty for no limit')).toBeInTheDocument();
    expect(app.callsTo('PUT', '/api/account/spend-limits')).toHaveLength(0);
  });

  it('saves the limits, empty as none, and shows the server answer', async () => {
    const saved = { ...noSpendLimits, dailyCredits: 50 };
    const app = renderApp('/dashboard', { 'PUT /api/account/spend-limits': { body: saved } });
    await app.user.type(await screen.findByLabelText('Daily limit (credits)'), '50');
    await app.user.click(screen.getByRole('button', { name: 'Save limits' }));
    await waitFor(() => expect(app.callsTo('PUT', '/api/account/spend-limits')).toHaveLength(1));
    expect(app.callsTo('PUT', '/api/account/spend-limits')[0].body).toEqual({ dailyCredits: 50, monthlyCredits: null });
    expect(await screen.findByText('0 of 50 credits (resets Mar 2, 2025, 12:00 AM UTC)')).toBeInTheDocument();
  });

  it("shows the server's field error under its field", async () => {
    const message = 'Verify your email address before setting spend limits';
    const app = renderApp('/dashboard', {
      'PUT /api/account/spend-limits': { status: 400, body: { code: 'invalid_request', message, errors: { monthlyCredits: message } } },
    });
    await app.user.type(await screen.findByLabelText('Monthly limit (credits)'), '100');
    await app.user.click(screen.getByRole('button', { name: 'Save limits' }));
    const form = screen.getByRole('form', { name: 'Spend limits' });
    expect(await within(form).findByText(message)).toBeInTheDocument();
  });
});
