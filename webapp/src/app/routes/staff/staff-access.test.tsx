import { beforeAll, describe, expect, it } from 'vitest';
import { verifiedUser } from '@/testing/data';
import { signedOut, type Call } from '@/testing/fake-api';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { loadStaffRoutes, SELLER_ID, staffApi, staffUser } from './staff-fixtures';

/** Who is staff comes with the user (GET /api/user, the sign-in answer): nothing asks the staff API. */
const staffCalls = (calls: Call[]) => calls.filter((c) => c.path.startsWith('/api/staff'));

describe('staff access', () => {
  beforeAll(loadStaffRoutes, 60_000);

  it('adds Staff console to the menus of staff, as GET /api/user says isStaff', async () => {
    const app = renderApp('/dashboard', staffApi());
    const main = await screen.findByRole('navigation', { name: 'Main' });
    const link = await within(main).findByRole('link', { name: 'Staff console' });
    expect(link).toHaveAttribute('href', '/staff');
    await app.user.click(await screen.findByRole('button', { name: 'Open menu' }));
    expect(within(screen.getByRole('navigation', { name: 'Mobile' })).getByRole('link', { name: 'Staff console' })).toBeInTheDocument();
    await screen.findByText('Welcome to Amazon to eBay Automation');
    expect(staffCalls(app.calls)).toEqual([]);

    await app.user.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff console' })).toBeInTheDocument();
    expect(staffCalls(app.calls)).toEqual([]);
  });

  it('shows sellers no Staff console link and asks the staff API nothing', async () => {
    const app = renderApp('/dashboard');
    const main = await screen.findByRole('navigation', { name: 'Main' });
    await screen.findByText('Welcome to Amazon to eBay Automation');
    expect(within(main).queryByRole('link', { name: 'Staff console' })).not.toBeInTheDocument();
    expect(within(main).getAllByRole('link')).toHaveLength(7);
    expect(app.callsTo('GET', '/api/user')).toHaveLength(1);
    expect(staffCalls(app.calls)).toEqual([]);
  });

  it.each([
    ['staff', staffUser, true],
    ['a seller', verifiedUser, false],
  ])('takes who is staff from the sign-in answer, for %s', async (_, user, shown) => {
    const app = renderApp('/login', { ...signedOut, 'POST /api/login': { body: { token: 't', user } } });
    await app.user.type(await screen.findByLabelText('Email'), user.email);
    await app.user.type(screen.getByLabelText('Password'), 'password123');
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(app.location()).toBe('/dashboard'));
    const main = await screen.findByRole('navigation', { name: 'Main' });
    await screen.findByText('Welcome to Amazon to eBay Automation');
    expect(within(main).queryByRole('link', { name: 'Staff console' }) !== null).toBe(shown);
    expect(staffCalls(app.calls)).toEqual([]);
  });

  it.each(['/staff', `/staff/accounts/${SELLER_ID}`, '/STAFF/'])(
    'shows a seller the not-found screen at %s, as the API answers 404',
    async (path) => {
      const app = renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
      expect(screen.getByText('404')).toBeInTheDocument();
      expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
      expect(staffCalls(app.calls)).toEqual([]);
    },
  );

  it('sends a visitor to /login', async () => {
    const app = renderApp('/staff', signedOut);
    expect(await screen.findByRole('heading', { name: 'Sign in to Account' })).toBeInTheDocument();
    expect(app.location()).toBe('/login');
    expect(staffCalls(app.calls)).toEqual([]);
  });

  it('shows the server’s refusal to staff who lost the role since the session began', async () => {
    const app = renderApp(
      '/staff?q=seller',
      staffApi({ 'GET /api/staff/accounts': { status: 404, body: { message: 'Not found' } } }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff console' })).toBeInTheDocument();
    expect(await screen.findByText('Could not search accounts.')).toBeInTheDocument();
    expect(app.callsTo('GET', '/api/staff/accounts').map((c) => c.url)).toEqual(['/api/staff/accounts?q=seller']);
  });

  it('shows the not-found screen for an unknown staff address', async () => {
    renderApp('/staff/nowhere', staffApi());
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
  });
});
