import { describe, expect, it } from 'vitest';
import { never, signedOut } from '@/testing/fake-api';
import { renderApp, screen, waitFor } from '@/testing/test-utils';

describe('routes', () => {
  it.each([
    ['/', /Move Amazon products to eBay/],
    ['/login', 'Sign in to Account'],
    ['/register', 'Create Elite Account'],
    ['/reset-password', 'Reset Password'],
    ['/reset-password/complete?token=abc', 'Set a New Password'],
  ])('shows the public screen at %s', async (path, heading) => {
    renderApp(path, signedOut);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });

  it.each([
    ['/dashboard', 'Welcome to Amazon to eBay Automation'],
    ['/subscription', 'Subscription'],
    ['/api-keys', 'API Keys'],
    ['/usage-history', 'Tutorials'],
    ['/download', 'Download Software'],
    ['/support', 'Support'],
    ['/transactions', 'Transactions'],
    ['/checkout?credits=100', 'Checkout'],
    ['/checkout/success?credits=100&amount=9.99', 'Payment Successful'],
    ['/subscribe/success', 'Subscription Successful'],
  ])('shows the signed-in screen at %s', async (path, heading) => {
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });

  it('shows /subscribe to a user without a subscription', async () => {
    renderApp('/subscribe', {
      'GET /api/user/profile': { body: { ...(await import('@/testing/data')).inactiveProfile } },
      'POST /api/subscription/create': { body: { clientSecret: 'pi_1_secret' } },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Subscribe' })).toBeInTheDocument();
  });

  it('matches paths case-insensitively', async () => {
    const app = renderApp('/DashBoard');
    expect(await screen.findByText('Welcome to Amazon to eBay Automation')).toBeInTheDocument();
    expect(app.location()).toBe('/DashBoard');
  });

  it('accepts a trailing slash', async () => {
    renderApp('/login/', signedOut);
    expect(await screen.findByRole('heading', { name: 'Sign in to Account' })).toBeInTheDocument();
  });

  it('accepts both at once', async () => {
    renderApp('/API-KEYS/');
    expect(await screen.findByRole('heading', { level: 1, name: 'API Keys' })).toBeInTheDocument();
  });

  it('shows a spinner while the session loads', async () => {
    renderApp('/dashboard', { 'GET /api/user': never });
    expect(await screen.findByRole('status', { name: 'Loading your session' })).toBeInTheDocument();
  });

  it.each(['/dashboard', '/subscription', '/checkout?credits=100', '/USAGE-HISTORY/'])(
    'sends a visitor on %s to /login',
    async (path) => {
      const app = renderApp(path, signedOut);
      expect(await screen.findByRole('heading', { name: 'Sign in to Account' })).toBeInTheDocument();
      expect(app.location()).toBe('/login');
    },
  );

  it('shows the not-found screen for any other path', async () => {
    renderApp('/no/such/page', signedOut);
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByText("The page you're looking for doesn't exist or has been moved.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Homepage' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('img', { name: 'the product logo' })).toBeInTheDocument();
  });

  it('goes back one step from the not-found screen', async () => {
    const app = renderApp('/login', signedOut);
    await screen.findByRole('heading', { name: 'Sign in to Account' });
    await app.router.navigate('/nowhere');
    await app.user.click(await screen.findByRole('button', { name: 'Go Back' }));
    await waitFor(() => expect(app.location()).toBe('/login'));
  });
});
