import { describe, expect, it } from 'vitest';
import { findToast, renderApp, screen, waitFor, within } from '@/testing/test-utils';

const asked = {
  id: 'r1',
  subject: 'Credits missing',
  message: 'My 100 credits are gone.',
  status: 'answered',
  createdAt: '2026-11-24T10:00:00Z',
  replies: [{ message: 'We restored them.', createdAt: '2026-11-24T11:00:00Z' }],
};

describe("the seller's support requests", () => {
  it('lists them below the form with support replies and their status', async () => {
    renderApp('/support', { 'GET /api/support/requests': { body: { requests: [asked] } } });
    const list = await screen.findByRole('list', { name: 'Your support requests' });
    const request = within(list).getByRole('article', { name: 'Credits missing' });
    expect(request).toHaveTextContent('My 100 credits are gone.');
    expect(request).toHaveTextContent('Answered');
    expect(within(request).getByLabelText('Reply from support')).toHaveTextContent('We restored them.');
  }, 20_000);

  it('says when there are none, and shows a new one after sending it', async () => {
    let requests: unknown[] = [];
    const app = renderApp('/support', {
      'GET /api/support/requests': () => ({ body: { requests } }),
      'POST /api/support/requests': () => {
        requests = [{ ...asked, status: 'open', replies: [] }];
        return { status: 201, body: { message: 'Support request submitted' } };
      },
    });
    expect(await screen.findByText('You have not sent any support request yet.')).toBeInTheDocument();
    await app.user.type(screen.getByLabelText('Subject'), 'Credits missing');
    await app.user.type(screen.getByLabelText('Message'), 'My 100 credits are gone.');
    await app.user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await findToast('Support Request Submitted')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('article', { name: 'Credits missing' })).toHaveTextContent('Waiting for support'));
  }, 20_000);
});
