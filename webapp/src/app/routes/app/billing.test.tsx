import { beforeEach, describe, expect, it, vi } from 'vitest';
import { navigateTo } from '@/lib/browser';
import type { Profile } from '@/lib/auth-api/get-profile';
import { asServerSays, activeProfile, cancellingProfile, inactiveProfile, pastDueProfile, simulatedConfig, transactions } from '@/testing/data';
import type { Handler } from '@/testing/fake-api';
import { findToast, renderApp, screen, waitFor, within } from '@/testing/test-utils';

// Stripe's Billing Portal is another site: the full-page navigation is the
// boundary (navigateTo is setup.ts's recorded stand-in).

const STRIPE_PORTAL = 'https://billing.stripe.com/p/session/test_YWNjdF8x';
const SIMULATED_PORTAL = `${window.location.origin}/dev/billing-portal`;
const BANNER_TEXT = 'Your last subscription payment failed. Update your payment method to keep your subscription.';

/** A profile endpoint whose status the test changes as the server would. */
function profileOf(profile: Profile) {
  let current = profile;
  return {
    handler: (() => ({ body: current })) as Handler,
    set: (next: Partial<Profile>) => {
      current = { ...current, ...next };
    },
  };
}

const statusCard = () =>
  screen.getByRole('heading', { name: 'Subscription Status' }).closest('section') as HTMLElement;

const banner = () => (screen.queryByText(BANNER_TEXT)?.closest('section[aria-label="Payment past due"]') ?? null) as HTMLElement | null;

beforeEach(() => vi.mocked(navigateTo).mockClear());

describe('subscription page by status', () => {
  it('active: Manage Subscription opens the portal URL the server answers, never a new subscription', async () => {
    const app = renderApp('/subscription', { 'POST /api/subscription/portal': { body: { url: STRIPE_PORTAL } } });
    expect(await screen.findByText('Next billing date: March 15, 2025')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Manage Subscription' }));
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith(STRIPE_PORTAL));
    expect(app.callsTo('POST', '/api/subscription/portal')).toHaveLength(1);
    expect(app.callsTo('POST', '/api/subscription/create')).toHaveLength(0);
    expect(screen.queryByText('Manage Subscription', { selector: '.toast-title' })).not.toBeInTheDocument();
  });

  it("the simulated portal's URL, on this app's origin, opens in the app", async () => {
    const app = renderApp('/subscription', { 'POST /api/subscription/portal': { body: { url: SIMULATED_PORTAL } } });
    await app.user.click(await screen.findByRole('button', { name: 'Manage Subscription' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Simulated Billing Portal' })).toBeInTheDocument();
    expect(app.location()).toBe('/dev/billing-portal');
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it("the simulated portal's URL on another origin (the API's port under the dev server) still opens in the app", async () => {
    const app = renderApp('/subscription', {
      'POST /api/subscription/portal': { body: { url: 'http://127.0.0.1:65530/dev/billing-portal' } },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Manage Subscription' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Simulated Billing Portal' })).toBeInTheDocument();
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it('reports a portal the server refuses (no billing account yet)', async () => {
    const app = renderApp('/subscription', {
      'POST /api/subscription/portal': { status: 409, body: { message: 'You have no billing account yet. Subscribe first.' } },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Manage Subscription' }));
    expect(await findToast('Error')).toBeInTheDocument();
    expect(screen.getByText('You have no billing account yet. Subscribe first.')).toBeInTheDocument();
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it('cancelling: Active until the end, what lasts until then, and Resume', async () => {
    const profile = profileOf(cancellingProfile);
    const app = renderApp('/subscription', {
      'GET /api/user/profile': profile.handler,
      'POST /api/subscription/resume': () => {
        profile.set({ ...asServerSays('active'), subscriptionEndsAt: null, subscriptionRenewalDate: '2025-03-15T12:00:00Z' });
        return { body: { message: 'Your subscription will renew as usual.' } };
      },
      'POST /api/subscription/portal': { body: { url: STRIPE_PORTAL } },
    });
    expect(await screen.findByText('Active until March 15, 2025', { selector: '.badge' })).toHaveClass('badge-info');
    expect(
      screen.getByText(/Premium access and this billing cycle's credits last until March 15, 2025/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();

    // Manage Subscription goes to the portal, not to a second subscription.
    await app.user.click(screen.getByRole('button', { name: 'Manage Subscription' }));
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith(STRIPE_PORTAL));
    expect(app.callsTo('POST', '/api/subscription/create')).toHaveLength(0);

    await app.user.click(screen.getByRole('button', { name: 'Resume Subscription' }));
    expect(await findToast('Subscription Resumed')).toBeInTheDocument();
    expect(screen.getByText('Your subscription will renew as usual.')).toBeInTheDocument();
    expect(await screen.findByText('Active', { selector: '.badge' })).toHaveClass('badge-success');
    expect(screen.getByText('Next billing date: March 15, 2025')).toBeInTheDocument();
    expect(app.callsTo('POST', '/api/subscription/resume')).toHaveLength(1);
  });

  it('cancelling: a refused resume says why', async () => {
    const app = renderApp('/subscription', {
      'GET /api/user/profile': { body: cancellingProfile },
      'POST /api/subscription/resume': { status: 409, body: { message: 'There is no cancellation to undo' } },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Resume Subscription' }));
    expect(await findToast('Error')).toBeInTheDocument();
    expect(screen.getByText('There is no cancellation to undo')).toBeInTheDocument();
  });

  it('past due: explains the failed payment, Update Payment Method opens the portal, Cancel ends it at once', async () => {
    const profile = profileOf(pastDueProfile);
    const app = renderApp('/subscription', {
      'GET /api/user/profile': profile.handler,
      'POST /api/subscription/portal': { body: { url: STRIPE_PORTAL } },
      'POST /api/subscription/cancel': () => {
        profile.set({ ...asServerSays('cancelled') });
        return { body: { message: 'Subscription cancelled' } };
      },
    });
    await screen.findByText('Past Due', { selector: '.badge' });
    const card = statusCard();
    expect(within(card).getByText(/Your last subscription payment failed\. Premium access is paused/)).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Manage Subscription' })).not.toBeInTheDocument();

    await app.user.click(within(card).getByRole('button', { name: 'Update Payment Method' }));
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith(STRIPE_PORTAL));
    expect(app.callsTo('POST', '/api/subscription/create')).toHaveLength(0);

    await app.user.click(within(card).getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Subscription' });
    expect(dialog).toHaveTextContent('your subscription will end immediately');
    expect(dialog).not.toHaveTextContent('at the end of your current billing period');
    await app.user.click(within(dialog).getByRole('button', { name: 'Yes, Cancel' }));
    expect(await findToast('Subscription Cancelled')).toBeInTheDocument();
    expect(await screen.findByText('Cancelled', { selector: '.badge' })).toBeInTheDocument();
    // Over: the seller may subscribe again, and the banner is gone.
    expect(screen.getByRole('button', { name: 'Manage Subscription' })).toBeInTheDocument();
    expect(banner()).toBeNull();
  });

  it.each([['inactive'], ['cancelled']])('%s: Manage Subscription opens the subscribe form as before', async (status) => {
    const app = renderApp('/subscription', {
      'GET /api/user/profile': { body: { ...inactiveProfile, subscriptionStatus: status } },
      'POST /api/subscription/create': { body: { clientSecret: 'pi_sub_secret' } },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Manage Subscription' }));
    expect(await screen.findByRole('heading', { name: 'Subscribe to Monthly Plan' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Subscribe' })).toBeInTheDocument();
    expect(app.callsTo('POST', '/api/subscription/create')).toHaveLength(1);
    expect(app.callsTo('POST', '/api/subscription/portal')).toHaveLength(0);
  });
});

describe('past-due banner', () => {
  it.each([['/dashboard'], ['/api-keys'], ['/transactions'], ['/support']])(
    'shows on %s while past due, and its button opens the portal',
    async (path) => {
      const app = renderApp(path, {
        'GET /api/user/profile': { body: pastDueProfile },
        'POST /api/subscription/portal': { body: { url: STRIPE_PORTAL } },
      });
      expect(await screen.findByText(BANNER_TEXT)).toBeInTheDocument();
      const alert = banner()!;
      expect(alert).toHaveAttribute('aria-label', 'Payment past due');
      await app.user.click(within(alert).getByRole('button', { name: 'Update Payment Method' }));
      await waitFor(() => expect(navigateTo).toHaveBeenCalledWith(STRIPE_PORTAL));
    },
  );

  it.each([
    ['active', activeProfile],
    ['cancelling', cancellingProfile],
    ['inactive', inactiveProfile],
    ['cancelled', { ...inactiveProfile, ...asServerSays('cancelled') }],
  ])('does not show while %s', async (_status, profile) => {
    renderApp('/dashboard', { 'GET /api/user/profile': { body: profile } });
    expect(await screen.findByRole('heading', { name: 'Credits Available' })).toBeInTheDocument();
    expect(screen.queryByText(BANNER_TEXT)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Update Payment Method' })).not.toBeInTheDocument();
  });

  it('goes away once the open invoice is paid', async () => {
    const profile = profileOf(pastDueProfile);
    const app = renderApp('/dashboard', {
      'GET /api/user/profile': profile.handler,
      'POST /api/subscription/portal': { body: { url: SIMULATED_PORTAL } },
      'POST /api/dev/subscription/advance-cycle': () => {
        profile.set({ ...asServerSays('active'), subscriptionRenewalDate: '2025-04-15T12:00:00Z' });
        return { body: { status: 'succeeded', message: 'Invoice paid' } };
      },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Update Payment Method' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Simulated Billing Portal' })).toBeInTheDocument();
    // Not on the portal itself, which is where it leads.
    expect(screen.queryByText(BANNER_TEXT)).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Pay Open Invoice' }));
    expect(await findToast('Payment Successful')).toBeInTheDocument();
    await app.user.click(screen.getByRole('link', { name: 'Return to Subscription' }));
    expect(await screen.findByText('Next billing date: April 15, 2025')).toBeInTheDocument();
    expect(screen.queryByText(BANNER_TEXT)).not.toBeInTheDocument();
  });
});

describe('dashboard billing', () => {
  const card = async () => (await screen.findByRole('heading', { name: 'Subscription Status' })).closest('section') as HTMLElement;

  it('cancelling: Active until, will not renew, no Subscribe now', async () => {
    renderApp('/dashboard', { 'GET /api/user/profile': { body: cancellingProfile } });
    const status = await card();
    expect(await within(status).findByText('Active until March 15, 2025')).toHaveClass('badge-info');
    expect(within(status).getByText(/Will not renew after March 15, 2025/)).toBeInTheDocument();
    expect(within(status).getByRole('link', { name: 'Manage subscription' })).toHaveAttribute('href', '/subscription');
    expect(within(status).queryByRole('link', { name: 'Subscribe now' })).not.toBeInTheDocument();
  });

  it('past due: the failed payment, no Subscribe now', async () => {
    renderApp('/dashboard', { 'GET /api/user/profile': { body: pastDueProfile } });
    const status = await card();
    expect(await within(status).findByText('Past Due')).toHaveClass('badge-danger');
    expect(within(status).getByText(/Your last payment failed/)).toBeInTheDocument();
    expect(within(status).queryByRole('link', { name: 'Subscribe now' })).not.toBeInTheDocument();
  });

  it('active: the renewal date, no Subscribe now', async () => {
    renderApp('/dashboard');
    const status = await card();
    expect(await within(status).findByText('Renews on March 15, 2025')).toBeInTheDocument();
    expect(within(status).queryByRole('link', { name: 'Subscribe now' })).not.toBeInTheDocument();
  });

  it.each([['inactive'], ['cancelled']])('%s: Subscribe now', async (subscriptionStatus) => {
    renderApp('/dashboard', { 'GET /api/user/profile': { body: { ...inactiveProfile, subscriptionStatus } } });
    const status = await card();
    expect(await within(status).findByRole('link', { name: 'Subscribe now' })).toHaveAttribute('href', '/subscription');
  });

  it('says how many credits are owed and that the next credits repay them', async () => {
    renderApp('/dashboard', { 'GET /api/user/profile': { body: { ...activeProfile, creditsAvailable: 0, creditDebt: 25 } } });
    const note = await screen.findByRole('note', { name: 'Credits owed' });
    expect(note).toHaveTextContent('You owe 25 credits');
    expect(note).toHaveTextContent('Your next credits (a purchase, a renewal) repay it first.');
    expect(screen.queryByRole('note', { name: 'Spending paused' })).not.toBeInTheDocument();
  });

  it('says spending is paused while a dispute is open', async () => {
    renderApp('/dashboard', { 'GET /api/user/profile': { body: { ...activeProfile, spendingFrozen: true } } });
    const note = await screen.findByRole('note', { name: 'Spending paused' });
    expect(note).toHaveTextContent('Spending is paused while a payment dispute is open');
    expect(screen.queryByRole('note', { name: 'Credits owed' })).not.toBeInTheDocument();
  });

  it('shows no billing notice normally', async () => {
    renderApp('/dashboard');
    expect(await screen.findByText('1,234')).toBeInTheDocument();
    expect(screen.queryByRole('note', { name: 'Credits owed' })).not.toBeInTheDocument();
    expect(screen.queryByRole('note', { name: 'Spending paused' })).not.toBeInTheDocument();
  });

  it('a cancelling subscription still downloads the software', async () => {
    renderApp('/download', { 'GET /api/user/profile': { body: cancellingProfile } });
    expect(await screen.findByRole('button', { name: 'Download for Windows' })).toBeEnabled();
    expect(screen.queryByRole('heading', { name: 'Active Subscription Required' })).not.toBeInTheDocument();
  });

  it('a past due subscription does not', async () => {
    renderApp('/download', { 'GET /api/user/profile': { body: pastDueProfile } });
    expect(await screen.findByRole('heading', { name: 'Active Subscription Required' })).toBeInTheDocument();
  });
});

describe('simulated billing portal', () => {
  it('is labelled as a development stand-in and lists the invoices', async () => {
    renderApp('/dev/billing-portal');
    expect(await screen.findByRole('heading', { level: 1, name: 'Simulated Billing Portal' })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent("Development only — stands in for Stripe's customer portal");
    expect(await screen.findByText('Credit purchase: 500 credits')).toBeInTheDocument();
    expect(screen.getAllByRole('row')).toHaveLength(transactions.length + 1);
    expect(screen.getByRole('link', { name: 'Return to Subscription' })).toHaveAttribute('href', '/subscription');
    await waitFor(() => expect(document.title).toBe('Simulated Billing Portal · Amazon to eBay Automation'));
  });

  it('past due: Pay Open Invoice retries the invoice, then the profile and invoices are fetched again', async () => {
    const profile = profileOf(pastDueProfile);
    const app = renderApp('/dev/billing-portal', {
      'GET /api/user/profile': profile.handler,
      'POST /api/dev/subscription/advance-cycle': () => {
        profile.set({ ...asServerSays('active'), subscriptionRenewalDate: '2025-04-15T12:00:00Z' });
        return { body: { status: 'succeeded', message: 'Invoice paid' } };
      },
    });
    expect(await screen.findByText('Past Due', { selector: '.badge' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resume Subscription' })).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Pay Open Invoice' }));
    expect(await findToast('Payment Successful')).toBeInTheDocument();
    expect(app.callsTo('POST', '/api/dev/subscription/advance-cycle')[0].body).toEqual({ outcome: 'succeeded' });
    expect(await screen.findByText('Active', { selector: '.badge' })).toBeInTheDocument();
    expect(screen.getByText('Renews on April 15, 2025')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay Open Invoice' })).not.toBeInTheDocument();
    await waitFor(() => expect(app.callsTo('GET', '/api/transactions').length).toBeGreaterThan(1));
  });

  it('a stale page pays nothing once the invoice was paid elsewhere', async () => {
    const profile = profileOf(pastDueProfile);
    const app = renderApp('/dev/billing-portal', {
      'GET /api/user/profile': profile.handler,
      'POST /api/dev/subscription/advance-cycle': { body: { status: 'succeeded', message: 'Invoice paid' } },
    });
    const pay = await screen.findByRole('button', { name: 'Pay Open Invoice' });
    // Paid in another tab meanwhile: this tab still shows the button.
    profile.set({ ...asServerSays('active'), subscriptionRenewalDate: '2025-04-15T12:00:00Z' });
    await app.user.click(pay);
    expect(await findToast('Nothing to Pay')).toBeInTheDocument();
    expect(app.callsTo('POST', '/api/dev/subscription/advance-cycle')).toHaveLength(0);
  });

  it('past due: a declined retry stays past due with Payment Failed', async () => {
    const app = renderApp('/dev/billing-portal', {
      'GET /api/user/profile': { body: pastDueProfile },
      'POST /api/dev/subscription/advance-cycle': { body: { status: 'failed', message: 'Your card was declined.' } },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Pay Open Invoice' }));
    expect(await findToast('Payment Failed')).toBeInTheDocument();
    expect(screen.getByText('Your card was declined.')).toBeInTheDocument();
  });

  it('active: Cancel Subscription cancels at the period end', async () => {
    const profile = profileOf(activeProfile);
    const app = renderApp('/dev/billing-portal', {
      'GET /api/user/profile': profile.handler,
      'POST /api/subscription/cancel': () => {
        profile.set({ ...asServerSays('cancelling'), subscriptionRenewalDate: null, subscriptionEndsAt: '2025-03-15T12:00:00Z' });
        return { body: { message: 'Subscription cancelled' } };
      },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Cancel Subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Subscription' });
    expect(dialog).toHaveTextContent('at the end of your current billing period');
    await app.user.click(within(dialog).getByRole('button', { name: 'Yes, Cancel' }));
    expect(await findToast('Subscription Cancelled')).toBeInTheDocument();
    expect(await screen.findByText('Active until March 15, 2025', { selector: '.badge' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resume Subscription' })).toBeInTheDocument();
  });

  it('cancelling: Resume Subscription', async () => {
    const profile = profileOf(cancellingProfile);
    const app = renderApp('/dev/billing-portal', {
      'GET /api/user/profile': profile.handler,
      'POST /api/subscription/resume': () => {
        profile.set({ ...asServerSays('active'), subscriptionEndsAt: null, subscriptionRenewalDate: '2025-03-15T12:00:00Z' });
        return { body: { message: 'Your subscription will renew as usual.' } };
      },
    });
    const resume = await screen.findByRole('button', { name: 'Resume Subscription' });
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).not.toBeInTheDocument();
    await app.user.click(resume);
    expect(await findToast('Subscription Resumed')).toBeInTheDocument();
    expect(await screen.findByText('Active', { selector: '.badge' })).toBeInTheDocument();
  });

  it('is the not-found screen with Stripe', async () => {
    renderApp('/dev/billing-portal', {
      'GET /api/config': { body: { ...simulatedConfig, paymentProvider: 'stripe', stripePublishableKey: 'pk_test_1', environment: 'production' } },
    });
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
  });
});

describe('transaction statuses', () => {
  const rows = [
    ['refunded', 'Refunded', 'badge-neutral'],
    ['partially_refunded', 'Partially Refunded', 'badge-neutral'],
    ['disputed', 'Disputed', 'badge-warning'],
    ['chargeback', 'Charged Back', 'badge-danger'],
    ['needs_review', 'Under Review', 'badge-info'],
    ['paid', 'Paid', 'badge-success'],
    ['pending', 'Pending', 'badge-outline'],
    ['failed', 'Failed', 'badge-danger'],
    ['something_new', 'Failed', 'badge-danger'],
  ] as const;
  const list = rows.map(([status], i) => ({
    id: `t${i}`,
    transactionDate: `2025-02-${String(20 - i).padStart(2, '0')}T10:00:00Z`,
    description: `Payment ${status}`,
    amount: 999,
    status,
  }));

  it('labels each status on /transactions', async () => {
    renderApp('/transactions', { 'GET /api/transactions': { body: list } });
    for (const [status, label, tone] of rows) {
      const row = (await screen.findByText(`Payment ${status}`)).closest('tr')!;
      expect(within(row).getByText(label)).toHaveClass(tone);
    }
  });

  it('labels them on the dashboard too', async () => {
    renderApp('/dashboard', { 'GET /api/transactions': { body: list } });
    const card = (await screen.findByRole('heading', { name: 'Recent Transactions' })).closest('section')!;
    expect(await within(card).findByText('Refunded')).toHaveClass('badge-neutral');
    expect(within(card).getByText('Partially Refunded')).toBeInTheDocument();
    expect(within(card).getByText('Disputed')).toHaveClass('badge-warning');
  });
});

describe('subscribe page with a subscription running', () => {
  it.each([
    ['cancelling', cancellingProfile, 'Subscription Active'],
    ['past_due', pastDueProfile, 'Payment Past Due'],
  ])('%s: goes to /subscription and creates nothing', async (_status, profile, title) => {
    const app = renderApp('/subscribe', { 'GET /api/user/profile': { body: profile } });
    expect(await findToast(title)).toBeInTheDocument();
    await waitFor(() => expect(app.location()).toBe('/subscription'));
    expect(app.callsTo('POST', '/api/subscription/create')).toHaveLength(0);
  });
});
