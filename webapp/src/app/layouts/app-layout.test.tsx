import { describe, expect, it } from 'vitest';
import { signedOut } from '@/testing/fake-api';
import { findToast, renderApp, screen, waitFor, within } from '@/testing/test-utils';

describe('signed-in layout', () => {
  it('has the sidebar navigation and the bottom bar', async () => {
    renderApp('/dashboard');
    const main = await screen.findByRole('navigation', { name: 'Main' });
    const links = within(main).getAllByRole('link').map((l) => [l.textContent?.trim(), l.getAttribute('href')]);
    expect(links).toEqual([
      ['Dashboard', '/dashboard'],
      ['Subscription', '/subscription'],
      ['API Keys', '/api-keys'],
      ['Tutorials', '/usage-history'],
      ['Webhooks', '/webhooks'],
      ['Download Software', '/download'],
      ['Support', '/support'],
    ]);
    const bottom = screen.getByRole('navigation', { name: 'Quick' });
    expect(within(bottom).getAllByRole('link').map((l) => l.textContent)).toEqual([
      'Dashboard',
      'Subscription',
      'API Keys',
      'Download',
    ]);
  });

  it('opens the mobile menu, which calls the tutorials Usage History', async () => {
    const app = renderApp('/dashboard');
    const toggle = await screen.findByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await app.user.click(toggle);
    const menu = screen.getByRole('navigation', { name: 'Mobile' });
    expect(within(menu).getByRole('link', { name: 'Usage History' })).toHaveAttribute('href', '/usage-history');
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    await app.user.click(within(menu).getByRole('link', { name: 'Support' }));
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument());
  });

  it('shows the email with initials and logs out from the keyboard menu', async () => {
    const app = renderApp('/dashboard', { 'POST /api/logout': { body: { message: 'bye' } } });
    const trigger = await screen.findByRole('button', { name: 'Account menu for jane.doe@example.com' });
    // Drawn from data-initials by CSS, outside the button's text (label in name).
    expect(trigger.querySelector('.avatar')).toHaveAttribute('data-initials', 'JD');
    expect(trigger).toHaveTextContent('jane.doe@example.com');
    trigger.focus();
    await app.user.keyboard('{Enter}');
    expect(await screen.findByRole('menuitem', { name: 'Log out' })).toHaveFocus();
    await app.user.keyboard('{Enter}');
    expect(await findToast('Logged Out')).toBeInTheDocument();
    await waitFor(() => expect(app.location()).toBe('/'));
    expect(app.callsTo('POST', '/api/logout')).toHaveLength(1);
    expect(await screen.findByRole('heading', { name: /Move Amazon products/ })).toBeInTheDocument();
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Log in' })).toBeInTheDocument();
  });

  it('reports a failed log out', async () => {
    const app = renderApp('/dashboard', { 'POST /api/logout': { status: 500, body: '' } });
    await app.user.click(await screen.findByRole('button', { name: 'Open menu' }));
    await app.user.click(within(screen.getByRole('navigation', { name: 'Mobile' })).getByRole('button', { name: 'Log out' }));
    expect(await findToast('Logout Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to sign out')).toBeInTheDocument();
  });
});

describe('landing', () => {
  it('offers Log in and Sign up to visitors, with the API plan price', async () => {
    renderApp('/', signedOut);
    expect(await screen.findByText('$29.99')).toBeInTheDocument();
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(within(header).getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
    expect(within(header).queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument();
    for (const anchor of ['Features', 'Pricing', 'Testimonials']) {
      expect(screen.getByRole('link', { name: anchor })).toHaveAttribute('href', `#${anchor.toLowerCase()}`);
    }
    for (const [name, href] of [['Support', '/support'], ['Contact', '/contact'], ['Privacy', '/privacy'], ['Terms', '/terms']]) {
      expect(screen.getByRole('link', { name })).toHaveAttribute('href', href);
    }
    expect(screen.getAllByRole('figure')).toHaveLength(3);
    expect(screen.getByRole('heading', { name: 'VeRO Protection' })).toBeInTheDocument();
  });

  it('offers the Dashboard when signed in', async () => {
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
  });
});
