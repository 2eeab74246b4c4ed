import { describe, expect, it } from 'vitest';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { WEBHOOK_EVENT_TYPES } from '../api/webhooks';

const endpoint = {
  id: 'we_1',
  url: 'https://hooks.example.com/a2e',
  events: ['credits.granted'],
  secret: 'whsec_abc',
  status: 'enabled',
  failingSince: null,
  createdAt: '2025-03-01T12:00:00Z',
};

const delivery = {
  id: 'd-1',
  eventId: 'evt_1',
  eventType: 'credits.granted',
  status: 'failed',
  attempts: 3,
  lastStatus: 500,
  lastError: 'the endpoint answered 500',
  latencyMs: 12,
  lastAttemptAt: '2025-03-01T12:00:00Z',
  nextRetryAt: null,
  createdAt: '2025-03-01T12:00:00Z',
};

describe('the Webhooks page', () => {
  it('refuses a missing URL and no event type before sending', async () => {
    const app = renderApp('/webhooks', { 'GET /api/webhooks/endpoints': { body: { endpoints: [] } } });
    const form = await screen.findByRole('form', { name: 'Add a webhook endpoint' });
    for (const box of within(form).getAllByRole('checkbox')) await app.user.click(box);
    await app.user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(form).findByText('Enter the URL that receives the events')).toBeInTheDocument();
    expect(within(form).getByText('Choose at least one event type')).toBeInTheDocument();
    expect(app.callsTo('POST', '/api/webhooks/endpoints')).toHaveLength(0);
  });

  it("adds an endpoint with the events chosen and shows the server's field error", async () => {
    const message = 'An account can have at most 5 webhook endpoints';
    const app = renderApp('/webhooks', {
      'GET /api/webhooks/endpoints': { body: { endpoints: [] } },
      'POST /api/webhooks/endpoints': { status: 400, body: { code: 'invalid_request', message, errors: { url: message } } },
    });
    const form = await screen.findByRole('form', { name: 'Add a webhook endpoint' });
    await app.user.type(within(form).getByLabelText('Endpoint URL'), 'https://hooks.example.com/a2e');
    await app.user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    await waitFor(() => expect(app.callsTo('POST', '/api/webhooks/endpoints')).toHaveLength(1));
    const sent = app.callsTo('POST', '/api/webhooks/endpoints')[0].body as { url: string; events: string[] };
    expect(sent.url).toBe('https://hooks.example.com/a2e');
    expect(sent.events).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(await within(form).findByText(message)).toBeInTheDocument();
  });

  it('shows the secret on demand and resends a delivery', async () => {
    const app = renderApp('/webhooks', {
      'GET /api/webhooks/endpoints': { body: { endpoints: [endpoint] } },
      'GET /api/webhooks/endpoints/we_1/deliveries': { body: { deliveries: [delivery], nextCursor: null } },
      'POST /api/webhooks/endpoints/we_1/deliveries/d-1/resend': { status: 202, body: { queued: true } },
    });
    const item = await screen.findByRole('listitem', { name: `Endpoint ${endpoint.url}` });
    expect(within(item).queryByText('whsec_abc')).not.toBeInTheDocument();
    await app.user.click(within(item).getByRole('button', { name: 'Show secret' }));
    expect(within(item).getByLabelText('Signing secret')).toHaveTextContent('whsec_abc');
    await app.user.click(within(item).getByRole('button', { name: 'Show deliveries' }));
    const row = await within(item).findByRole('row', { name: /credits\.granted/ });
    expect(row).toHaveTextContent('failed');
    expect(row).toHaveTextContent('500');
    await app.user.click(within(row).getByRole('button', { name: 'Resend credits.granted evt_1' }));
    await waitFor(() => expect(app.callsTo('POST', '/api/webhooks/endpoints/we_1/deliveries/d-1/resend')).toHaveLength(1));
  });
});
