import { beforeAll, describe, expect, it } from 'vitest';
import { signedOut } from '@/testing/fake-api';
import { renderApp, screen, within } from '@/testing/test-utils';
import { loadStaffRoutes, SELLER_ID, staffApi } from './staff-fixtures';

const probe = (calls: { path: string; url: string }[]) =>
  calls.filter((c) => c.path === '/api/staff/accounts' && c.url.endsWith('?q='));

describe('staff access', () => {
  beforeAll(loadStaffRoutes, 60_000);

  it('adds Staff console to the menus of staff, asking the server once', async () => {
    const app = renderApp('/dashboard', staffApi());
    const main = await screen.findByRole('navigation', { name: 'Main' });
    const link = await within(main).findByRole('link', { name: 'Staff console' });
    expect(link).toHaveAttribute('href', '/staff');
    await app.user.click(await screen.findByRole('button', { name: 'Open menu' }));
    expect(within(screen.getByRole('navigation', { name: 'Mobile' })).getByRole('link', { name: 'Staff console' })).toBeInTheDocument();

    await app.user.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff console' })).toBeInTheDocument();
    expect(probe(app.calls)).toHaveLength(1);
  });

  it('shows sellers no Staff console link', async () => {
    const app = renderApp('/dashboard');
    const main = await screen.findByRole('navigation', { name: 'Main' });
    await screen.findByText('Welcome to Amazon to eBay Automation');
    expect(probe(app.calls)).toHaveLength(1);
    expect(within(main).queryByRole('link', { name: 'Staff console' })).not.toBeInTheDocument();
    expect(within(main).getAllByRole('link')).toHaveLength(6);
  });

  it.each(['/staff', `/staff/accounts/${SELLER_ID}`, '/STAFF/'])(
    'shows a seller the not-found screen at %s, as the API answers 404',
    async (path) => {
      const app = renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
      expect(screen.getByText('404')).toBeInTheDocument();
      expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
      // Only the probe: no staff data was asked for.
      expect(app.calls.filter((c) => c.path.startsWith('/api/staff'))).toEqual(probe(app.calls));
    },
  );

  it('sends a visitor to /login', async () => {
    const app = renderApp('/staff', signedOut);
    expect(await screen.findByRole('heading', { name: 'Sign in to Account' })).toBeInTheDocument();
    expect(app.location()).toBe('/login');
  });

  it('says so when the access check fails', async () => {
    renderApp('/staff', { 'GET /api/staff/accounts': { status: 500, body: '' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not check your access');
  });

  it('shows the not-found screen for an unknown staff address', async () => {
    renderApp('/staff/nowhere', staffApi());
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
  });
});
