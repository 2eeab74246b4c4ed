import { beforeAll, describe, expect, it } from 'vitest';
import { renderApp, screen, within } from '@/testing/test-utils';
import { loadStaffRoutes, SELLER_ID, staffApi, STAFF_ID } from './staff-fixtures';

describe('staff search', () => {
  beforeAll(loadStaffRoutes, 60_000);

  it('finds accounts by email and links each to its page', async () => {
    const app = renderApp('/staff', staffApi());
    const box = await screen.findByRole('searchbox', { name: 'Email or account id' });
    await app.user.type(box, 'example.com');
    await app.user.click(screen.getByRole('button', { name: 'Search' }));

    const table = await screen.findByRole('table');
    expect(app.location()).toBe('/staff?q=example.com');
    expect(app.calls.some((c) => c.url === '/api/staff/accounts?q=example.com')).toBe(true);
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Email', 'Account id', 'Credits', 'Subscription', 'Role']);
    const [, sellerRow, staffRow] = within(table).getAllByRole('row');
    expect(within(sellerRow).getByRole('link', { name: 'seller@example.com' })).toHaveAttribute('href', `/staff/accounts/${SELLER_ID}`);
    expect(sellerRow).toHaveTextContent(SELLER_ID);
    expect(sellerRow).toHaveTextContent('1,234');
    expect(within(sellerRow).getByText('Active')).toHaveClass('badge-success');
    expect(within(sellerRow).getByText('Seller')).toBeInTheDocument();
    expect(within(staffRow).getByText('Staff')).toHaveClass('badge-info');
    expect(within(staffRow).getByText('Inactive')).toHaveClass('badge-warning');
    expect(staffRow).toHaveTextContent(STAFF_ID);

    await app.user.click(within(sellerRow).getByRole('link', { name: 'seller@example.com' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'seller@example.com' })).toBeInTheDocument();
    expect(app.location()).toBe(`/staff/accounts/${SELLER_ID}`);
  });

  it('finds an account by its id, with the query kept in the address', async () => {
    const app = renderApp(`/staff?q=${SELLER_ID}`, staffApi());
    expect(await screen.findByRole('link', { name: 'seller@example.com' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Email or account id' })).toHaveValue(SELLER_ID);
    expect(screen.getAllByRole('row')).toHaveLength(2);
    expect(app.callsTo('GET', '/api/staff/accounts').map((c) => c.url)).toContain(`/api/staff/accounts?q=${SELLER_ID}`);
  });

  it('says when nothing matches', async () => {
    const app = renderApp('/staff', staffApi());
    await app.user.type(await screen.findByRole('searchbox', { name: 'Email or account id' }), 'nobody{Enter}');
    expect(await screen.findByText('No account matches “nobody”')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('does not search for a blank query', async () => {
    const app = renderApp('/staff', staffApi());
    await app.user.type(await screen.findByRole('searchbox', { name: 'Email or account id' }), '   {Enter}');
    expect(app.location()).toBe('/staff');
    expect(app.callsTo('GET', '/api/staff/accounts')).toHaveLength(0);
  });
});
