import { describe, expect, it } from 'vitest';
import { noAutoRecharge } from '@/testing/data';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';

const enabled = {
  ...noAutoRecharge,
  enabled: true,
  thresholdCredits: 50,
  packCredits: 500,
  packAmountCents: 3999,
  monthlyLimitCents: 8000,
  paymentMethod: { brand: 'visa', last4: '4242' },
  rechargedThisMonthCents: 3999,
};

describe('AutoRechargeCard on the dashboard', () => {
  it('shows the saved card, the settings and what was recharged this month', async () => {
    renderApp('/dashboard', { 'GET /api/account/auto-recharge': { body: enabled } });
    const card = await screen.findByRole('group', { name: 'Saved card' });
    expect(card).toHaveTextContent('visa ending in 4242');
    expect(screen.getByLabelText('When available credits fall below')).toHaveValue('50');
    expect(screen.getByLabelText('Buy this pack')).toHaveValue('500');
    expect(screen.getByLabelText('Monthly limit (USD)')).toHaveValue('80.00');
    expect(screen.getByText('$39.99 of $80.00')).toBeInTheDocument();
  });

  it('says why auto-recharge turned itself off', async () => {
    renderApp('/dashboard', {
      'GET /api/account/auto-recharge': { body: { ...enabled, enabled: false, disabledReason: 'failed_charges' } },
    });
    const notice = await screen.findByRole('status', { name: 'Auto-recharge turned off' });
    expect(notice).toHaveTextContent('the last 3 charges to your card failed');
  });

  it('saves a simulated card through the labelled test form', async () => {
    const app = renderApp('/dashboard', {
      'POST /api/account/payment-method': { body: { clientSecret: 'seti_sim_1_secret_x' } },
      'POST /api/dev/payments/confirm': { body: { status: 'succeeded', message: 'Card saved' } },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Save a card' }));
    const form = await screen.findByRole('group', { name: 'Card' });
    expect(within(form).getByRole('note')).toHaveTextContent('Test mode');
    await app.user.click(within(form).getByRole('button', { name: 'Save card 4242 (charges succeed)' }));
    await waitFor(() => expect(app.callsTo('POST', '/api/dev/payments/confirm')).toHaveLength(1));
    expect(app.callsTo('POST', '/api/dev/payments/confirm')[0].body).toEqual({ clientSecret: 'seti_sim_1_secret_x', outcome: 'succeeded' });
  });

  it('refuses a bad threshold or limit before sending, and sends the settings in cents', async () => {
    const app = renderApp('/dashboard', {
      'GET /api/account/auto-recharge': { body: enabled },
      'PUT /api/account/auto-recharge': { body: { ...enabled, thresholdCredits: 20 } },
    });
    const threshold = await screen.findByLabelText('When available credits fall below');
    const form = screen.getByRole('form', { name: 'Auto-recharge' });
    await app.user.clear(threshold);
    await app.user.type(threshold, '-5');
    await app.user.click(within(form).getByRole('button', { name: 'Save auto-recharge' }));
    expect(await within(form).findByText('Enter a whole number of credits')).toBeInTheDocument();
    expect(app.callsTo('PUT', '/api/account/auto-recharge')).toHaveLength(0);
    await app.user.clear(threshold);
    await app.user.type(threshold, '20');
    await app.user.click(within(form).getByRole('button', { name: 'Save auto-recharge' }));
    await waitFor(() => expect(app.callsTo('PUT', '/api/account/auto-recharge')).toHaveLength(1));
    expect(app.callsTo('PUT', '/api/account/auto-recharge')[0].body).toEqual({
      enabled: true,
      thresholdCredits: 20,
      packCredits: 500,
      monthlyLimitCents: 8000,
    });
  });

  it('confirms a recharge waiting for 3-D Secure with the payment form', async () => {
    const app = renderApp('/dashboard', {
      'GET /api/account/auto-recharge': { body: { ...enabled, needsAuthentication: true } },
      'POST /api/account/auto-recharge/confirmation': { body: { clientSecret: 'pi_sim_1_secret_y', credits: 500, amountCents: 3999 } },
      'POST /api/dev/payments/confirm': { body: { status: 'succeeded', message: 'Payment succeeded' } },
    });
    const notice = await screen.findByRole('status', { name: 'Recharge needs your confirmation' });
    await app.user.click(within(notice).getByRole('button', { name: 'Confirm payment' }));
    await app.user.click(await within(notice).findByRole('button', { name: 'Pay $39.99' }));
    await waitFor(() => expect(app.callsTo('POST', '/api/dev/payments/confirm')).toHaveLength(1));
    expect(app.callsTo('POST', '/api/dev/payments/confirm')[0].body).toEqual({ clientSecret: 'pi_sim_1_secret_y', outcome: 'succeeded' });
  });
});
