import { describe, expect, it, vi } from 'vitest';
import type { Transaction } from '@/features/transactions/api/get-transactions';
import { asServerSays, activeProfile, cancellingProfile, inactiveProfile, pastDueProfile, transactions } from '@/testing/data';
import type { Handler } from '@/testing/fake-api';
import { findToast, renderApp, screen, waitFor } from '@/testing/test-utils';
import { maskSecret } from '@/components/ui/secret-field';

/**
 * Each mutation hook refetches what its change touched, whichever page runs
 * it and whether or not that page shows the data: a page opened afterwards
 * shows the new figures from the cache, without refetching them itself.
 */

/** A server whose profile and transactions change when `pay` is called, as a paid payment would change them. */
function ledger(before: typeof activeProfile, after: Partial<typeof activeProfile>, newRow: Transaction) {
  let paid = false;
  return {
    pay: () => {
      paid = true;
    },
    routes: {
      'GET /api/user/profile': () => ({ body: paid ? { ...before, ...after } : before }),
      'GET /api/transactions': () => ({ body: paid ? [newRow, ...transactions] : transactions }),
    } satisfies Record<string, Handler>,
  };
}

const paidRow = (id: string, description: string, amount: number): Transaction => ({
  id,
  transactionDate: '2025-03-01T10:00:00Z',
  description,
  amount,
  status: 'paid',
});

describe('mutation hooks refetch what they change', () => {
  it('a credit purchase: the balance and the transactions, which the checkout does not show', { timeout: 15_000 }, async () => {
    const server = ledger(activeProfile, { creditsAvailable: 1334 }, paidRow('t5', 'Credit purchase: 100 credits, just paid', 999));
    const app = renderApp('/checkout?credits=100', {
      ...server.routes,
      'POST /api/credits/purchase': { body: { clientSecret: 'pi_1_secret_x', amountCents: 999 } },
      'POST /api/dev/payments/confirm': () => {
        server.pay();
        return { body: { status: 'succeeded' } };
      },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Pay $9.99' }));
    expect(await findToast('Payment Successful')).toBeInTheDocument();
    await waitFor(() => expect(app.callsTo('GET', '/api/transactions')).toHaveLength(1));

    await app.router.navigate('/transactions');
    expect(await screen.findByText('Credit purchase: 100 credits, just paid')).toBeInTheDocument();
    await app.router.navigate('/dashboard');
    expect(await screen.findByText('1,334')).toBeInTheDocument();
    expect(app.callsTo('GET', '/api/transactions')).toHaveLength(1);
  });

  it('a subscription paid on /subscribe: the status and the transactions', { timeout: 15_000 }, async () => {
    const server = ledger(inactiveProfile, { ...asServerSays('active'), creditsAvailable: 500 }, paidRow('t5', 'Monthly Plan, just paid', 2999));
    const app = renderApp('/subscribe', {
      ...server.routes,
      'POST /api/subscription/create': { body: { clientSecret: 'pi_sub_secret' } },
      'POST /api/dev/payments/confirm': () => {
        server.pay();
        return { body: { status: 'succeeded' } };
      },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Subscribe for $29.99/month' }));
    expect(await screen.findByRole('heading', { name: 'Subscription Successful' })).toBeInTheDocument();
    await waitFor(() => expect(app.callsTo('GET', '/api/transactions')).toHaveLength(1));

    await app.router.navigate('/transactions');
    expect(await screen.findByText('Monthly Plan, just paid')).toBeInTheDocument();
    await app.router.navigate('/subscription');
    expect(await screen.findByText('Active', { selector: '.badge' })).toBeInTheDocument();
  });

  it('a cancellation on the simulated portal: the status, then read on the dashboard', async () => {
    let cancelled = false;
    const app = renderApp('/dev/billing-portal', {
      'GET /api/user/profile': () => ({ body: cancelled ? cancellingProfile : activeProfile }),
      'POST /api/subscription/cancel': () => {
        cancelled = true;
        return { body: { message: 'ok' } };
      },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Cancel Subscription' }));
    await app.user.click(await screen.findByRole('button', { name: 'Yes, Cancel' }));
    expect(await findToast('Subscription Cancelled')).toBeInTheDocument();
    const before = app.callsTo('GET', '/api/user/profile').length;
    await app.router.navigate('/dashboard');
    expect(await screen.findByText('Active until March 15, 2025')).toBeInTheDocument();
    expect(app.callsTo('GET', '/api/user/profile')).toHaveLength(before);
  });

  it('paying the open invoice: the status and the invoices', async () => {
    let paid = false;
    const app = renderApp('/dev/billing-portal', {
      'GET /api/user/profile': () => ({ body: paid ? activeProfile : pastDueProfile }),
      'GET /api/transactions': () => ({ body: paid ? [paidRow('t5', 'Monthly Plan renewal', 2999), ...transactions] : transactions }),
      'POST /api/dev/subscription/advance-cycle': () => {
        paid = true;
        return { body: { status: 'succeeded' } };
      },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Pay Open Invoice' }));
    expect(await findToast('Payment Successful')).toBeInTheDocument();
    expect(await screen.findByText('Monthly Plan renewal')).toBeInTheDocument();
    expect(screen.getByText('Active', { selector: '.badge' })).toBeInTheDocument();
  });

  it('a new API key: the profile that shows it, everywhere', async () => {
    let key = activeProfile.apiKey;
    const app = renderApp('/api-keys', {
      'GET /api/user/profile': () => ({ body: { ...activeProfile, apiKey: key } }),
      'POST /api/user/api-key/regenerate': () => {
        key = 'a2e_live_new456';
        return { body: { apiKey: key, message: 'ok' } };
      },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Regenerate API Key' }));
    await app.user.click(await screen.findByRole('button', { name: 'Regenerate' }));
    expect(await findToast('API Key Regenerated')).toBeInTheDocument();
    await app.router.navigate('/dashboard');
    expect(await screen.findByDisplayValue(maskSecret('a2e_live_new456'))).toBeInTheDocument();
    // Masked there; its copy button copies the new key itself.
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await app.user.click(await screen.findByRole('button', { name: 'Copy API key' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('a2e_live_new456'));
  });
});
