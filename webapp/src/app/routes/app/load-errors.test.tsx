import { describe, expect, it } from 'vitest';
import { asServerSays, activeProfile, transactions, verifiedUser } from '@/testing/data';
import type { Handler } from '@/testing/fake-api';
import { renderApp, screen, waitFor } from '@/testing/test-utils';
import { maskSecret } from '@/components/ui/secret-field';

/** A reply that fails until ok() is called, then answers body. */
function failing(body: unknown) {
  let fixed = false;
  const handler: Handler = () => (fixed ? { body } : { status: 500, body: { message: 'An unexpected error occurred' } });
  return { handler, ok: () => (fixed = true) };
}

describe('a screen whose data cannot be loaded', () => {
  it.each([
    ['/api-keys', 'your API key', 'Your API Key'],
    ['/download', 'downloads', 'Download Software'],
    ['/subscription', 'your subscription', 'Subscription Status'],
    ['/dashboard', 'your dashboard', 'Welcome to Amazon to eBay Automation'],
  ])('%s says so and retries instead of spinning', async (path, what, heading) => {
    const profile = failing(activeProfile);
    const app = renderApp(path, { 'GET /api/user/profile': profile.handler });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`Could not load ${what}`);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    profile.ok();
    await app.user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
  });

  it('the subscribe page retries too', async () => {
    const profile = failing({ ...activeProfile, ...asServerSays('inactive') });
    const app = renderApp('/subscribe', { 'GET /api/user/profile': profile.handler });
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load your subscription');
    profile.ok();
    await app.user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByText(/Could not load/)).not.toBeInTheDocument());
  });

  it("the dashboard's recent transactions fail on their own, with a Retry", async () => {
    const list = failing(transactions);
    const app = renderApp('/dashboard', { 'GET /api/transactions': list.handler });
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load your transactions');
    expect(screen.getByRole('heading', { name: 'Welcome to Amazon to eBay Automation' })).toBeInTheDocument();
    list.ok();
    await app.user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByText('Could not load your transactions')).not.toBeInTheDocument());
  });
});

describe('a session that ends under an open tab', () => {
  it('sends the seller to /login and back to the page after signing in', async () => {
    let signedIn = true;
    const app = renderApp('/api-keys', {
      'GET /api/user': () => (signedIn ? { body: verifiedUser } : { status: 401, body: { message: 'Not signed in' } }),
      'GET /api/user/profile': () => (signedIn ? { body: activeProfile } : { status: 401, body: { message: 'Not signed in' } }),
      'GET /api/transactions': () => (signedIn ? { body: transactions } : { status: 401, body: { message: 'Not signed in' } }),
      'POST /api/login': () => {
        signedIn = true;
        return { body: { token: 't', user: verifiedUser, message: 'Signed in' } };
      },
    });
    expect(await screen.findByRole('heading', { name: 'API Keys' })).toBeInTheDocument();
    signedIn = false; // the session expires under the open tab
    await app.router.navigate('/transactions'); // a page whose data is not cached yet
    await waitFor(() => expect(app.location()).toBe('/login'));

    await app.user.type(await screen.findByLabelText('Email'), verifiedUser.email);
    await app.user.type(screen.getByLabelText('Password'), 'Correct-Horse-42!');
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(app.location()).toBe('/transactions'), { timeout: 5000 });
  }, 15_000);

  it('returns to the whole address, query included', async () => {
    let signedIn = false;
    const app = renderApp('/checkout?credits=500', {
      'GET /api/user': () => (signedIn ? { body: verifiedUser } : { status: 401, body: { message: 'Not signed in' } }),
      'POST /api/credits/purchase': { body: { clientSecret: 'pi_1_secret', amountCents: 3999 } },
      'POST /api/login': () => {
        signedIn = true;
        return { body: { token: 't', user: verifiedUser, message: 'Signed in' } };
      },
    });
    await waitFor(() => expect(app.location()).toBe('/login'));
    await app.user.type(await screen.findByLabelText('Email'), verifiedUser.email);
    await app.user.type(screen.getByLabelText('Password'), 'Correct-Horse-42!');
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(app.location()).toBe('/checkout?credits=500'), { timeout: 5000 });
  }, 15_000);

  it('shows whoever signs in next nothing of the last session', async () => {
    let signedIn = true;
    let who = 'first';
    const app = renderApp('/api-keys', {
      'GET /api/user': () => (signedIn ? { body: verifiedUser } : { status: 401, body: { message: 'Not signed in' } }),
      'GET /api/user/profile': () =>
        signedIn ? { body: { ...activeProfile, apiKey: `a2e_${who}_key` } } : { status: 401, body: { message: 'Not signed in' } },
      'GET /api/transactions': () => (signedIn ? { body: transactions } : { status: 401, body: { message: 'Not signed in' } }),
      'POST /api/login': () => {
        signedIn = true;
        who = 'second';
        return { body: { token: 't', user: verifiedUser, message: 'Signed in' } };
      },
    });
    expect(await screen.findByDisplayValue(maskSecret('a2e_first_key'))).toBeInTheDocument();
    signedIn = false;
    await app.router.navigate('/transactions');
    await waitFor(() => expect(app.location()).toBe('/login'));
    await app.user.type(await screen.findByLabelText('Email'), verifiedUser.email);
    await app.user.type(screen.getByLabelText('Password'), 'Correct-Horse-42!');
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(app.location()).toBe('/transactions'), { timeout: 5000 });
    // Past SWR's 2 s de-duplication window, as any real sign-in is.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await app.router.navigate('/api-keys');
    // Masked until shown: both keys end in _key, so compare them revealed.
    await app.user.click(await screen.findByRole('button', { name: 'Show API key' }));
    expect(await screen.findByDisplayValue('a2e_second_key')).toBeInTheDocument();
    expect(screen.queryByDisplayValue('a2e_first_key')).not.toBeInTheDocument();
  }, 15_000);
});
