import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, findToast, renderApp, screen, waitFor, within } from '@/testing/test-utils';
import type { InboxRequest } from '@/features/staff-support/api/get-support-inbox';
import { loadStaffRoutes, seller, SELLER_ID, staffApi } from './staff-fixtures';

const request: InboxRequest = {
  id: '5d0c0d8e-4f4a-4a43-9a0e-5f8f3a4b2c11',
  accountId: SELLER_ID,
  email: 'seller@example.com',
  subject: 'Credits missing',
  message: 'My 100 credits are gone.',
  status: 'open',
  createdAt: '2026-11-24T10:00:00Z',
  updatedAt: '2026-11-24T10:00:00Z',
  replyCount: 0,
  account: { ...seller, creditDebt: 12 },
};
const older: InboxRequest = { ...request, id: '6e1d1e9f-5a5b-4b54-8b1f-6a9a4b5c3d22', subject: 'Old question', status: 'closed', account: null };
const threadPath = `/api/staff/support-requests/${request.id}`;

describe('staff support inbox', () => {
  beforeAll(() => Promise.all([loadStaffRoutes(), import('./support-inbox'), import('./support-request')]), 60_000);

  it('lists requests newest first with the account beside them, filters by status and pages', async () => {
    const app = renderApp(
      '/staff/support',
      staffApi({
        'GET /api/staff/support-requests': ({ url }) => {
          const q = new URL(url, 'http://localhost').searchParams;
          if (q.get('status') === 'closed') return { body: { requests: [older] } };
          return q.get('cursor') === 'c2' ? { body: { requests: [older] } } : { body: { requests: [request], nextCursor: 'c2' } };
        },
      }),
    );
    const table = await screen.findByRole('region', { name: 'Support requests' });
    const rows = () => within(screen.getByRole('region', { name: 'Support requests' })).getAllByRole('row').slice(1);
    expect(within(table).getByRole('link', { name: 'Credits missing' })).toHaveAttribute('href', `/staff/support/${request.id}`);
    expect(rows()[0]).toHaveTextContent('owes 12');
    expect(rows()[0]).toHaveTextContent('Open');
    await app.user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'closed' } });
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toHaveTextContent('Old question');
    expect(app.calls.some((c) => c.url.includes('status=closed'))).toBe(true);
  }, 20_000);

  it('opens a request, validates and sends a reply, and changes the status', async () => {
    let thread = { ...request, replies: [] as { id: string; author: string; message: string; createdAt: string }[] };
    const app = renderApp(
      `/staff/support/${request.id}`,
      staffApi({
        [`GET ${threadPath}`]: () => ({ body: thread }),
        [`POST ${threadPath}/replies`]: ({ body }) => {
          const { message } = body as { message: string };
          thread = { ...thread, status: 'answered', replies: [{ id: 'p1', author: 'support@example.com', message, createdAt: '2026-11-24T12:00:00Z' }] };
          return { status: 201, body: { id: 'p1', message, createdAt: '2026-11-24T12:00:00Z' } };
        },
        [`POST ${threadPath}/status`]: ({ body }) => {
          thread = { ...thread, status: (body as { status: 'closed' }).status };
          return { body: { status: 'closed', message: 'Status changed to closed' } };
        },
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Credits missing' })).toBeInTheDocument();
    const facts = screen.getByLabelText('Account summary');
    expect(facts).toHaveTextContent('seller@example.com');
    expect(facts).toHaveTextContent('1,234 credits');

    await app.user.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('A reply message is required')).toBeInTheDocument();
    expect(app.callsTo('POST', `${threadPath}/replies`)).toHaveLength(0);

    await app.user.type(screen.getByLabelText('Message'), 'We restored your credits.');
    await app.user.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await findToast('Reply sent')).toBeInTheDocument();
    expect(await screen.findByLabelText('Reply from support@example.com')).toHaveTextContent('We restored your credits.');
    expect(app.callsTo('POST', `${threadPath}/replies`)[0].body).toEqual({ message: 'We restored your credits.' });

    fireEvent.change(screen.getByLabelText('Request status'), { target: { value: 'closed' } });
    expect(await findToast('Status changed')).toBeInTheDocument();
    expect(app.callsTo('POST', `${threadPath}/status`)[0].body).toEqual({ status: 'closed' });
  }, 20_000);
});
