import { beforeAll, describe, expect, it } from 'vitest';
import { findToast, renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { accountPath, loadStaffRoutes, SELLER_ID, staffApi } from './staff-fixtures';

const page = `/staff/accounts/${SELLER_ID}`;

describe('refund and cancel from the staff account page', () => {
  beforeAll(loadStaffRoutes, 60_000);

  it('refunds a payment from its row: requires a reason, one Idempotency-Key per dialog, kept when Stripe asks to try again', async () => {
    let answers = [
      { status: 503, body: { code: 'service_unavailable', message: 'Payments are not responding right now. Please try again in a few seconds.', requestId: 'r1' } },
      { status: 200, body: { status: 'applied', message: 'Refunded $1.99: $1.99 of $9.99 refunded in total' } },
    ];
    const app = renderApp(
      page,
      staffApi({
        [`POST ${accountPath}/refunds`]: () => {
          const [next, ...rest] = answers;
          answers = rest;
          return next;
        },
      }),
    );
    const payments = await screen.findByRole('region', { name: 'Payments table' });
    await app.user.click(await within(payments).findByRole('button', { name: 'Refund pi_1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund a payment' });
    expect(screen.getByLabelText('Payment id')).toHaveValue('pi_1');
    expect(screen.getByText(/at most 70\)/)).toBeInTheDocument();
    await app.user.type(screen.getByLabelText('Credits to refund'), '0');
    await app.user.click(screen.getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('A reason of 3 to 500 characters is required')).toBeInTheDocument();
    expect(screen.getByText('Credits must be at least 1, or empty to refund what is left')).toBeInTheDocument();
    expect(app.callsTo('POST', `${accountPath}/refunds`)).toHaveLength(0);

    await app.user.clear(screen.getByLabelText('Credits to refund'));
    await app.user.type(screen.getByLabelText('Credits to refund'), '20');
    await app.user.type(within(screen.getByRole('dialog')).getByLabelText('Reason'), 'Sync failed');
    await app.user.click(screen.getByRole('button', { name: 'Refund' }));
    expect(await findToast('Refund failed')).toBeInTheDocument();
    expect(screen.getByText(/Please try again in a few seconds/, { selector: '.toast-description' })).toBeInTheDocument();
    expect(dialog).toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Refund' }));
    expect(await findToast('Refund recorded')).toBeInTheDocument();
    const calls = app.callsTo('POST', `${accountPath}/refunds`);
    expect(calls.map((c) => c.body)).toEqual([
      { paymentId: 'pi_1', credits: 20, reason: 'Sync failed' },
      { paymentId: 'pi_1', credits: 20, reason: 'Sync failed' },
    ]);
    expect(calls[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(calls[1].headers['idempotency-key']).toBe(calls[0].headers['idempotency-key']);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  }, 20_000);

  it('cancels at the period end or now, with a reason', async () => {
    const app = renderApp(
      page,
      staffApi({ [`POST ${accountPath}/subscription/cancel`]: { status: 202, body: { status: 'requested', message: 'Cancellation sent to Stripe' } } }),
    );
    await app.user.click(await screen.findByRole('button', { name: 'Cancel the subscription' }));
    await screen.findByRole('dialog', { name: 'Cancel the subscription' });
    await app.user.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    expect(await screen.findByText('A reason of 3 to 500 characters is required')).toBeInTheDocument();
    await app.user.click(screen.getByLabelText('Now'));
    await app.user.type(within(screen.getByRole('dialog')).getByLabelText('Reason'), 'Fraud suspected');
    await app.user.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    expect(await findToast('Cancellation requested')).toBeInTheDocument();
    expect(app.callsTo('POST', `${accountPath}/subscription/cancel`)[0].body).toEqual({ atPeriodEnd: false, reason: 'Fraud suspected' });
  }, 20_000);
});
