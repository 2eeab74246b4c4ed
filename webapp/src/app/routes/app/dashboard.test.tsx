import { describe, expect, it } from 'vitest';
import { activeProfile, asServerSays, inactiveProfile } from '@/testing/data';
import { never } from '@/testing/fake-api';
import { maskSecret } from '@/components/ui/secret-field';
import { expectNoToast, renderApp, screen, waitFor, within } from '@/testing/test-utils';

describe('dashboard', () => {
  it("shows the greeting and the cards' skeleton while the profile loads", async () => {
    renderApp('/dashboard', { 'GET /api/user/profile': never });
    expect(await screen.findByRole('status', { name: 'Loading your dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: /^Welcome to / })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Credits Available' })).not.toBeInTheDocument();
  });

  it('shows credits, status, API key (masked until shown) and the billing date', async () => {
    const app = renderApp('/dashboard');
    expect(await screen.findByText('1,234')).toBeInTheDocument();
    expect(screen.getByText('Active')).toHaveClass('badge-success');
    expect(screen.getByText('Renews on March 15, 2025')).toBeInTheDocument();
    expect(screen.getByLabelText('API Key')).toHaveValue(maskSecret('a2e_live_abc123'));
    expect(screen.getByLabelText('API Key')).toHaveAttribute('readonly');
    await app.user.click(screen.getByRole('button', { name: 'Show API key' }));
    expect(screen.getByLabelText('API Key')).toHaveValue('a2e_live_abc123');
    expect(screen.getByRole('button', { name: 'Copy API key' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage API Key' })).toHaveAttribute('href', '/api-keys');
  });

  it('shows the usage figures the API returns and the credits bar', async () => {
    renderApp('/dashboard');
    const table = (await screen.findByRole('row', { name: /Listings created/ })).closest('table')!;
    const row = within(table).getByRole('row', { name: /Listings created/ });
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['2', '11', '90', '700']);
    expect(screen.getByRole('progressbar', { name: 'Credits used this month' })).toHaveAttribute('aria-valuenow', '50');
  });

  it("dates the last spend under the credits bar from the profile's lastSpendAt", async () => {
    renderApp('/dashboard', { 'GET /api/user/profile': { body: { ...activeProfile, lastSpendAt: '2025-02-20T10:00:00Z' } } });
    expect(await screen.findByText('Last credit spent: Feb 20, 2025')).toBeInTheDocument();
  });

  it('shows no last spend before the first', async () => {
    renderApp('/dashboard', { 'GET /api/user/profile': { body: { ...activeProfile, lastSpendAt: null } } });
    expect(await screen.findByRole('progressbar', { name: 'Credits used this month' })).toBeInTheDocument();
    expect(screen.queryByText(/^Last credit spent/)).not.toBeInTheDocument();
  });

  it('shows the cards below the fold (in view in tests, as on a tall screen)', async () => {
    renderApp('/dashboard');
    expect(await screen.findByRole('form', { name: 'Alerts' })).toBeInTheDocument();
  });

  it('shows the 3 most recent transactions', async () => {
    renderApp('/dashboard');
    const card = (await screen.findByRole('heading', { name: 'Recent Transactions' })).closest('section')!;
    await waitFor(() => expect(within(card).getAllByRole('row')).toHaveLength(4));
    expect(within(card).getByText('Feb 20, 2025')).toBeInTheDocument();
    expect(within(card).queryByText('Jan 01, 2025')).not.toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'View all transactions' })).toHaveAttribute('href', '/transactions');
  });

  it('shows an inactive status in yellow for unknown values', async () => {
    renderApp('/dashboard', { 'GET /api/user/profile': { body: { ...inactiveProfile, ...asServerSays('weird') } } });
    expect(await screen.findByText('Inactive')).toHaveClass('badge-warning');
  });

  describe('credit purchase dialog', () => {
    it('rejects an empty choice once, under the packages (no toast)', async () => {
      const app = renderApp('/dashboard');
      await app.user.click(await screen.findByRole('button', { name: 'Buy More' }));
      const dialog = await screen.findByRole('dialog', { name: 'Buy Credits' });
      await app.user.click(within(dialog).getByRole('button', { name: 'Continue to Checkout' }));
      const problem = await within(dialog).findByRole('alert');
      expect(problem).toHaveTextContent('Please select a package or enter a valid amount.');
      expect(within(dialog).getByRole('group', { name: 'Credit packages' })).toHaveAttribute('aria-describedby', problem.id);
      expectNoToast();
    });

    it('rejects a non-integer custom amount', async () => {
      const app = renderApp('/dashboard');
      await app.user.click(await screen.findByRole('button', { name: 'Buy More' }));
      await app.user.type(await screen.findByLabelText('Custom amount (credits)'), '2.5');
      await app.user.click(screen.getByRole('button', { name: 'Continue to Checkout' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Please select a package or enter a valid amount.');
      expect(screen.getByLabelText('Custom amount (credits)')).toHaveAttribute('aria-invalid', 'true');
      expectNoToast();
    });

    it('goes to checkout with a package; choosing one clears the other', async () => {
      const app = renderApp('/dashboard');
      await app.user.click(await screen.findByRole('button', { name: 'Buy More' }));
      const custom = await screen.findByLabelText('Custom amount (credits)');
      await app.user.type(custom, '250');
      expect(screen.getByText('$0.10 per credit, at least 5 credits')).toBeInTheDocument();
      await app.user.click(screen.getByRole('radio', { name: /500 credits/ }));
      expect(custom).toHaveValue(null);
      await app.user.type(custom, '7');
      expect(screen.getByRole('radio', { name: /500 credits/ })).not.toBeChecked();
      await app.user.click(screen.getByRole('radio', { name: /1,000 credits/ }));
      await app.user.click(screen.getByRole('button', { name: 'Continue to Checkout' }));
      await waitFor(() => expect(app.location()).toBe('/checkout?credits=1000'));
    });

    it('goes to checkout with a custom amount', async () => {
      const app = renderApp('/dashboard', {
        'POST /api/credits/purchase': { body: { clientSecret: 'pi_secret', amountCents: 2500 } },
      });
      await app.user.click(await screen.findByRole('button', { name: 'Buy More' }));
      await app.user.type(await screen.findByLabelText('Custom amount (credits)'), '250');
      await app.user.click(screen.getByRole('button', { name: 'Continue to Checkout' }));
      await waitFor(() => expect(app.location()).toBe('/checkout?credits=250'));
    });
  });
});
