import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getStripe } from '@/lib/stripe';
import { inactiveProfile } from '@/testing/data';
import { never } from '@/testing/fake-api';
import { act, findToast, renderApp, screen, waitFor, within } from '@/testing/test-utils';

// Stripe.js is a third-party script: replace the loader and the React
// bindings at that boundary, keep everything of ours real.
const confirmPayment = vi.fn();
let ready: (() => void) | undefined;

vi.mock('@/lib/stripe', () => ({ getStripe: vi.fn(() => Promise.resolve({})) }));
vi.mock('@stripe/react-stripe-js', () => ({
  Elements: ({ children }: { children: ReactNode }) => <div data-testid="elements">{children}</div>,
  PaymentElement: ({ onReady }: { onReady: () => void }) => {
    ready = onReady;
    return <div>card fields</div>;
  },
  useStripe: () => ({ confirmPayment }),
  useElements: () => ({}),
}));

const stripeApi = {
  'GET /api/config': {
    body: { paymentProvider: 'stripe', stripePublishableKey: 'pk_test_123', environment: 'production' },
  },
  'POST /api/credits/purchase': { body: { clientSecret: 'pi_1_secret_x', amountCents: 999 } },
};

describe('payment form', () => {
  beforeEach(() => {
    confirmPayment.mockReset();
    ready = undefined;
    vi.mocked(getStripe).mockClear();
  });

  it('does not load Stripe with the simulated provider', async () => {
    renderApp('/checkout?credits=100', { 'POST /api/credits/purchase': stripeApi['POST /api/credits/purchase'] });
    expect(await screen.findByText(/Test mode/)).toBeInTheDocument();
    expect(getStripe).not.toHaveBeenCalled();
  });

  it('uses Stripe Elements and confirmPayment with the return address', async () => {
    confirmPayment.mockResolvedValue({ paymentIntent: { status: 'succeeded' } });
    const app = renderApp('/checkout?credits=100', stripeApi);
    const pay = await screen.findByRole('button', { name: 'Pay $9.99' });
    expect(getStripe).toHaveBeenCalledWith('pk_test_123');
    expect(pay).toBeDisabled();
    ready?.();
    await waitFor(() => expect(pay).toBeEnabled());
    await app.user.click(pay);
    expect(confirmPayment).toHaveBeenCalledWith({
      elements: {},
      confirmParams: { return_url: 'http://localhost:3000/checkout/success?amount=9.99&credits=100' },
      redirect: 'if_required',
    });
    expect(await findToast('Payment Successful')).toBeInTheDocument();
    await waitFor(() => expect(app.location()).toBe('/checkout/success?amount=9.99&credits=100'));
  });

  it('stays with a Payment Failed toast carrying the provider message', async () => {
    confirmPayment.mockResolvedValue({ error: { message: 'Your card has insufficient funds.' } });
    const app = renderApp('/checkout?credits=100', stripeApi);
    const pay = await screen.findByRole('button', { name: 'Pay $9.99' });
    ready?.();
    await waitFor(() => expect(pay).toBeEnabled());
    await app.user.click(pay);
    expect(await findToast('Payment Failed')).toBeInTheDocument();
    expect(screen.getByText('Your card has insufficient funds.')).toBeInTheDocument();
    expect(app.location()).toBe('/checkout?credits=100');
  });
});

/**
 * Stripe.js loads before any payment session is asked for: a browser that
 * cannot load it (blocked, offline) creates no PaymentIntent or
 * subscription, and Try Again loads it again.
 */
describe('when Stripe.js cannot load', () => {
  let stripeLoads: 'fail' | 'null' | 'ok' | 'hang';

  beforeEach(() => {
    ready = undefined;
    stripeLoads = 'fail';
    vi.mocked(getStripe).mockReset();
    vi.mocked(getStripe).mockImplementation(() => {
      switch (stripeLoads) {
        case 'fail':
          return Promise.reject(new Error('Failed to load Stripe.js'));
        case 'null':
          return Promise.resolve(null);
        case 'hang':
          return new Promise(() => {});
        default:
          return Promise.resolve({} as Awaited<ReturnType<typeof getStripe>>);
      }
    });
  });

  const failure = () => screen.findByText('We could not load the secure payment form.');

  it('checkout: asks for no PaymentIntent until Stripe.js loads, then a retry shows the form', async () => {
    const app = renderApp('/checkout?credits=100', stripeApi);
    const alert = (await failure()).closest('[role="alert"]') as HTMLElement;
    expect(alert).toHaveTextContent('You have not been charged.');
    expect(getStripe).toHaveBeenCalledWith('pk_test_123');
    expect(app.callsTo('POST', '/api/credits/purchase')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Pay $9.99' })).not.toBeInTheDocument();

    // Still failing: still nothing created.
    await app.user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await failure()).toBeInTheDocument();
    await waitFor(() => expect(getStripe).toHaveBeenCalledTimes(2));
    expect(app.callsTo('POST', '/api/credits/purchase')).toHaveLength(0);

    stripeLoads = 'ok';
    await app.user.click(screen.getByRole('button', { name: 'Try Again' }));
    const pay = await screen.findByRole('button', { name: 'Pay $9.99' });
    expect(screen.queryByText('We could not load the secure payment form.')).not.toBeInTheDocument();
    expect(app.callsTo('POST', '/api/credits/purchase')).toEqual([expect.objectContaining({ body: { creditAmount: 100 } })]);
    act(() => ready?.());
    await waitFor(() => expect(pay).toBeEnabled());
  });

  it('checkout: Cancel from the error goes to /dashboard', async () => {
    const app = renderApp('/checkout?credits=100', stripeApi);
    const alert = (await failure()).closest('[role="alert"]') as HTMLElement;
    await app.user.click(within(alert).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(app.location()).toBe('/dashboard'));
    expect(app.callsTo('POST', '/api/credits/purchase')).toHaveLength(0);
  });

  it('checkout: a Stripe.js that resolves to nothing counts as not loaded', async () => {
    stripeLoads = 'null';
    const app = renderApp('/checkout?credits=100', stripeApi);
    expect(await failure()).toBeInTheDocument();
    expect(app.callsTo('POST', '/api/credits/purchase')).toHaveLength(0);
  });

  it('checkout: nothing is created while Stripe.js is still loading', async () => {
    stripeLoads = 'hang';
    const app = renderApp('/checkout?credits=100', stripeApi);
    expect(await screen.findByRole('status', { name: 'Loading payment form' })).toBeInTheDocument();
    await waitFor(() => expect(getStripe).toHaveBeenCalled());
    expect(app.callsTo('POST', '/api/credits/purchase')).toHaveLength(0);
  });

  const subscribeApi = {
    ...stripeApi,
    'GET /api/user/profile': { body: inactiveProfile },
    'POST /api/subscription/create': { body: { clientSecret: 'pi_sub_secret', message: 'ok' } },
  };

  it('subscribe: creates no subscription until Stripe.js loads; Try Again then shows the form', async () => {
    const app = renderApp('/subscribe', subscribeApi);
    expect(await failure()).toBeInTheDocument();
    expect(app.callsTo('POST', '/api/subscription/create')).toHaveLength(0);

    stripeLoads = 'ok';
    await app.user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('button', { name: 'Subscribe for $29.99/month' })).toBeInTheDocument();
    expect(app.callsTo('POST', '/api/subscription/create')).toHaveLength(1);
  });

  it('subscription page: the inline form creates nothing until Stripe.js loads', async () => {
    const app = renderApp('/subscription', subscribeApi);
    await app.user.click(await screen.findByRole('button', { name: 'Manage Subscription' }));
    expect(await screen.findByRole('heading', { name: 'Subscribe to Monthly Plan' })).toBeInTheDocument();
    expect(await failure()).toBeInTheDocument();
    expect(app.callsTo('POST', '/api/subscription/create')).toHaveLength(0);

    // Cancel returns to the status card; opening the form again tries again.
    await app.user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'Subscription Status' })).toBeInTheDocument();
    stripeLoads = 'ok';
    await app.user.click(screen.getByRole('button', { name: 'Manage Subscription' }));
    expect(await screen.findByRole('button', { name: 'Subscribe' })).toBeInTheDocument();
    expect(app.callsTo('POST', '/api/subscription/create')).toHaveLength(1);
  });

  it('the simulated provider needs no Stripe.js and creates the session at once', async () => {
    const app = renderApp('/checkout?credits=100', { 'POST /api/credits/purchase': never });
    expect(await screen.findByRole('status', { name: 'Preparing payment' })).toBeInTheDocument();
    expect(app.callsTo('POST', '/api/credits/purchase')).toHaveLength(1);
    expect(getStripe).not.toHaveBeenCalled();
  });
});
