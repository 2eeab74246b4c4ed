import { describe, expect, it } from 'vitest';
import { plans, simulatedConfig } from '@/testing/data';
import { signedOut } from '@/testing/fake-api';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';

describe('document titles', () => {
  it.each([
    ['/dashboard', 'Dashboard · Amazon to eBay Automation'],
    ['/api-keys', 'API Keys · Amazon to eBay Automation'],
    ['/transactions', 'Transactions · Amazon to eBay Automation'],
    ['/subscription', 'Subscription · Amazon to eBay Automation'],
    ['/no-such-page', 'Page Not Found · Amazon to eBay Automation'],
    ['/terms', 'Terms of Service · Amazon to eBay Automation'],
  ])('%s is titled %s', async (path, title) => {
    renderApp(path);
    await waitFor(() => expect(document.title).toBe(title));
  });

  it('the sign-in page has its own', async () => {
    renderApp('/login', signedOut);
    await waitFor(() => expect(document.title).toBe('Sign In · Amazon to eBay Automation'));
  });
});

describe("the product name is the server's (PRODUCT_NAME)", () => {
  const config = { body: { ...simulatedConfig, productName: 'Seller Tools' } };

  it('names the tab, the logo and the welcome', async () => {
    renderApp('/dashboard', { 'GET /api/config': config });
    expect(await screen.findByRole('heading', { name: 'Welcome to Seller Tools' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Dashboard · Seller Tools'));
    expect(screen.getAllByRole('link', { name: /Seller Tools/ }).length).toBeGreaterThan(0);
  });

  it('signs the landing footer', async () => {
    renderApp('/', { ...signedOut, 'GET /api/config': config });
    expect(await screen.findByText(new RegExp(`© \\d{4} Seller Tools`))).toBeInTheDocument();
  });
});

describe('plan features come from the server', () => {
  const custom = { ...plans, plan: { ...plans.plan, features: ['750 credits per month', 'Full software access', 'Phone support'] } };

  it('the landing lists each feature once', async () => {
    renderApp('/', { ...signedOut, 'GET /api/plans': { body: plans } });
    const card = (await screen.findByText('Get Started')).closest('.pricing-card') as HTMLElement;
    const items = within(card).getAllByRole('listitem').map((li) => li.textContent?.trim());
    expect(items).toEqual(plans.plan.features);
    expect(new Set(items).size).toBe(items.length);
  });

  it('the subscription page shows the plan the server describes', async () => {
    renderApp('/subscription', { 'GET /api/plans': { body: custom } });
    expect(await screen.findByText('Phone support')).toBeInTheDocument();
    expect(screen.getByText('750 credits per month')).toBeInTheDocument();
    expect(screen.queryByText('500 credits per month')).not.toBeInTheDocument();
  });
});
