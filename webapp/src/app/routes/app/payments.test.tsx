import { describe, expect, it } from 'vitest';
import { activeProfile, inactiveProfile } from '@/testing/data';
import { never } from '@/testing/fake-api';
import { findToast, renderApp, screen, waitFor } from '@/testing/test-utils';

const purchase = { 'POST /api/credits/purchase': { body: { clientSecret: 'pi_1_secret_x', amountCents: 999, message: 'ok' } } };

describe('checkout', () => {
  it.each([
    ['/checkout', 'Missing Information', 'Credit amount is required.'],
    ['/checkout?credits=', 'Missing Information', 'Credit amount is required.'],
    ['/checkout?credits=abc', 'Invalid Amount', 'Please select a valid credit amount.'],
    ['/checkout?credits=-5', 'Invalid Amount', 'Please select a valid credit amount.'],
    ['/checkout?credits=1.5', 'Invalid Amount', 'Please select a valid credit amount.'],
    ['/checkout?credits=0', 'Invalid Amount', 'Please select a valid credit amount.'],
  ])('%s goes to /dashboard with %s', async (path, title, description) => {
    const app = renderApp(path, purchase);
    expect(await findToast(title)).toBeInTheDocument();
    expect(screen.getByText(description)).toBeInTheDocument();
    await waitFor(() => expect(app.location()).toBe('/dashboard'));
    expect(app.callsTo('POST', '/api/credits/purchase')).toHaveLength(0);
  });

  it('asks for a payment session once and shows the form only when it arrives', async () => {
    const app = renderApp('/checkout?credits=100', { 'POST /api/credits/purchase': never });
    expect(await screen.findByRole('status', { name: 'Preparing payment' })).toBeInTheDocument();
    // The total is the server's price, which comes with the payment session.
    expect(screen.queryByText('$9.99')).not.toBeInTheDocument();
    expect(app.callsTo('POST', '/api/credits/purchase')).toEqual([
      expect.objectContaining({ body: { creditAmount: 100 } }),
    ]);
    expect(screen.queryByText(/Test mode/)).not.toBeInTheDocument();
  });

  it('shows the simulated test-card form and pays', async () => {
    const app = renderApp('/checkout?credits=100', {
      ...purchase,
      'POST /api/dev/payments/confirm': { body: { status: 'succeeded', message: 'Payment succeeded' } },
    });
    expect(await screen.findByText('Test mode — simulated payment, no real card is charged')).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Pay $9.99' }));
    expect(await findToast('Payment Successful')).toBeInTheDocument();
    await waitFor(() => expect(app.location()).toBe('/checkout/success?amount=9.99&credits=100'));
    expect(app.callsTo('POST', '/api/dev/payments/confirm')[0].body).toEqual({
      clientSecret: 'pi_1_secret_x',
      outcome: 'succeeded',
    });
    expect(await screen.findByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('link', { name: 'Buy More Credits' })).toHaveAttribute('href', '/checkout?credits=100');
    expect(screen.getByText('100 credits for $9.99 have been added to your account.')).toBeInTheDocument();
  });

  it('shows the paid credits on the dashboard it came from', async () => {
    let paid = false;
    const app = renderApp('/dashboard', {
      ...purchase,
      'GET /api/user/profile': () => ({ body: { ...inactiveProfile, creditsAvailable: paid ? 100 : 0 } }),
      'POST /api/dev/payments/confirm': () => {
        paid = true;
        return { body: { status: 'succeeded' } };
      },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Buy More' }));
    await app.user.click(await screen.findByRole('radio', { name: /^100 credits/ }));
    await app.user.click(screen.getByRole('button', { name: 'Continue to Checkout' }));
    await app.user.click(await screen.findByRole('button', { name: 'Pay $9.99' }));
    await app.user.click(await screen.findByRole('link', { name: 'Go to Dashboard' }));
    expect(await screen.findByText('100')).toBeInTheDocument();
  });

  it('stays on the form with a Payment Failed toast on a decline', async () => {
    const app = renderApp('/checkout?credits=100', {
      ...purchase,
      'POST /api/dev/payments/confirm': ({ body }) =>
        (body as { outcome: string }).outcome === 'failed'
          ? { body: { status: 'failed', message: 'Your card was declined.' } }
          : { body: { status: 'succeeded' } },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Simulate declined payment' }));
    expect(await findToast('Payment Failed')).toBeInTheDocument();
    expect(screen.getByText('Your card was declined.')).toBeInTheDocument();
    expect(app.location()).toBe('/checkout?credits=100');
    expect(screen.getByRole('button', { name: 'Pay $9.99' })).toBeEnabled();
  });

  it('uses the default decline text without a provider message', async () => {
    const app = renderApp('/checkout?credits=100', {
      ...purchase,
      'POST /api/dev/payments/confirm': { status: 402, body: '' },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Simulate declined payment' }));
    expect(await findToast('Payment Failed')).toBeInTheDocument();
    expect(screen.getByText('Your payment could not be processed.')).toBeInTheDocument();
  });

  it('shows Payment Error when the confirmation breaks', async () => {
    const app = renderApp('/checkout?credits=100', {
      ...purchase,
      'POST /api/dev/payments/confirm': { status: 500, body: 'boom' },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Pay $9.99' }));
    expect(await findToast('Payment Error')).toBeInTheDocument();
    expect(screen.getByText('An unexpected error occurred.')).toBeInTheDocument();
  });

  it('goes to /dashboard when no payment session can be made', async () => {
    const app = renderApp('/checkout?credits=100', { 'POST /api/credits/purchase': { status: 500, body: '' } });
    expect(await findToast('Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to create payment session.')).toBeInTheDocument();
    await waitFor(() => expect(app.location()).toBe('/dashboard'));
  });

  it("shows the server's refusal of an unverified account and goes to /dashboard", async () => {
    const app = renderApp('/checkout?credits=100', {
      'POST /api/credits/purchase': {
        status: 403,
        body: { code: 'forbidden', message: 'Please verify your email address before making a payment.', requestId: 'r1' },
      },
    });
    expect(await findToast('Error')).toBeInTheDocument();
    expect(screen.getByText('Please verify your email address before making a payment.')).toBeInTheDocument();
    await waitFor(() => expect(app.location()).toBe('/dashboard'));
  });

  it('shows the throttle message of a 429', async () => {
    const app = renderApp('/checkout?credits=100', {
      'POST /api/credits/purchase': {
        status: 429,
        body: { code: 'rate_limited', message: 'Too many payment requests. Please wait a moment and try again.', requestId: 'r2' },
      },
    });
    expect(await findToast('Error')).toBeInTheDocument();
    expect(screen.getByText('Too many payment requests. Please wait a moment and try again.')).toBeInTheDocument();
    await waitFor(() => expect(app.location()).toBe('/dashboard'));
  });

  it('cancels to /dashboard', async () => {
    const app = renderApp('/checkout?credits=100', purchase);
    await app.user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(app.location()).toBe('/dashboard'));
  });
});

describe('subscribe', () => {
  const inactive = {
    'GET /api/user/profile': { body: inactiveProfile },
    'POST /api/subscription/create': { body: { clientSecret: 'pi_sub_secret', message: 'ok' } },
  };

  it('shows the benefits with the API price and subscribes', async () => {
    const app = renderApp('/subscribe', {
      ...inactive,
      'POST /api/dev/payments/confirm': { body: { status: 'succeeded' } },
    });
    expect(await screen.findByText('500 credits per month')).toBeInTheDocument();
    expect(screen.getByText('$29.99 per month')).toBeInTheDocument();
    await app.user.click(await screen.findByRole('button', { name: 'Subscribe for $29.99/month' }));
    expect(await findToast('Subscription Successful')).toBeInTheDocument();
    expect(screen.getByText('You are now subscribed to our service!')).toBeInTheDocument();
    await waitFor(() => expect(app.location()).toBe('/subscribe/success'));
    expect(app.callsTo('POST', '/api/subscription/create')).toHaveLength(1);
  });

  it('goes to /subscribe/success although the refetched profile is now active', async () => {
    let paid = false;
    const app = renderApp('/subscribe', {
      ...inactive,
      'GET /api/user/profile': () => ({ body: paid ? activeProfile : inactiveProfile }),
      'POST /api/dev/payments/confirm': () => {
        paid = true;
        return { body: { status: 'succeeded' } };
      },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Subscribe for $29.99/month' }));
    expect(await screen.findByRole('heading', { name: 'Subscription Successful' })).toBeInTheDocument();
    expect(app.location()).toBe('/subscribe/success');
    expect(app.callsTo('GET', '/api/user/profile').length).toBeGreaterThan(1);
  });

  it('shows Subscription Failed on a decline', async () => {
    const app = renderApp('/subscribe', {
      ...inactive,
      'POST /api/dev/payments/confirm': { body: { status: 'failed' } },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Simulate declined payment' }));
    expect(await findToast('Subscription Failed')).toBeInTheDocument();
    expect(screen.getByText('Your subscription payment could not be processed.')).toBeInTheDocument();
  });

  it('goes to /dashboard when the subscription cannot be created', async () => {
    const app = renderApp('/subscribe', {
      'GET /api/user/profile': { body: inactiveProfile },
      'POST /api/subscription/create': { status: 500, body: '' },
    });
    expect(await findToast('Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to create subscription.')).toBeInTheDocument();
    await waitFor(() => expect(app.location()).toBe('/dashboard'));
  });

  it('sends an active subscriber to /subscription', async () => {
    const app = renderApp('/subscribe', { 'GET /api/user/profile': { body: activeProfile } });
    expect(await findToast('Subscription Active')).toBeInTheDocument();
    await waitFor(() => expect(app.location()).toBe('/subscription'));
  });
});
