import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getStripe } from '@/lib/stripe';
import { findToast, renderApp, screen, waitFor } from '@/testing/test-utils';

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
