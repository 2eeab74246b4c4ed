import { describe, expect, it } from 'vitest';
import { plans } from '@/testing/data';
import { signedOut } from '@/testing/fake-api';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';

describe('document titles', () => {
  it.each([
    ['/dashboard', 'Dashboard · A2E Automation'],
    ['/api-keys', 'API Keys · A2E Automation'],
    ['/transactions', 'Transactions · A2E Automation'],
    ['/subscription', 'Subscription · A2E Automation'],
    ['/no-such-page', 'Page Not Found · A2E Automation'],
  ])('%s is titled %s', async (path, title) => {
    renderApp(path);
    await waitFor(() => expect(document.title).toBe(title));
  });

  it('the sign-in page has its own', async () => {
    renderApp('/login', signedOut);
    await waitFor(() => expect(document.title).toBe('Sign In · A2E Automation'));
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
