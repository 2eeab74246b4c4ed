import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '@/features/staff-audit/api/get-audit';
import type { Call } from '@/testing/fake-api';
import { findToast, renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { accountPath, accountView, loadStaffRoutes, SELLER_ID, staffApi, staffUser, STAFF_ID } from './staff-fixtures';

const staffCalls = (calls: Call[]) => calls.filter((c) => c.path.startsWith('/api/staff'));
const notPassed = (enrolled: boolean) => ({ ...staffUser, mfa: { required: true, enrolled, passed: false } });

const enrolment = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUrl: 'otpauth://totp/Amazon%20to%20eBay%20Automation:support@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  recoveryCodes: ['abcde-fghij', 'kmnpq-rstuv'],
};

describe('staff second factor', () => {
  beforeAll(loadStaffRoutes, 60_000);

  it('sends a staff member who has not enrolled to the set-up, shows the secret and recovery codes once, then a code opens the console', async () => {
    const app = renderApp(
      '/staff',
      staffApi({
        'GET /api/user': { body: notPassed(false) },
        'POST /api/auth/mfa/enroll': { status: 201, body: enrolment },
        'POST /api/auth/mfa/verify': { body: { message: 'Second factor accepted', user: staffUser, recoveryCodesLeft: 2 } },
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff console: second factor' })).toBeInTheDocument();
    expect(app.location()).toBe('/staff/mfa');
    expect(screen.queryByLabelText('Authentication code')).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Set up the second factor' }));
    expect(await screen.findByText(enrolment.secret)).toBeInTheDocument();
    expect(screen.getByText(enrolment.otpauthUrl)).toBeInTheDocument();
    const codes = screen.getByRole('list', { name: 'Recovery codes' });
    expect(within(codes).getAllByRole('listitem').map((li) => li.textContent)).toEqual(enrolment.recoveryCodes);
    await app.user.type(screen.getByLabelText('Authentication code'), '123456');
    await app.user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(app.location()).toBe('/staff'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff console' })).toBeInTheDocument();
    expect(app.callsTo('POST', '/api/auth/mfa/verify')[0].body).toEqual({ code: '123456' });
    expect(app.callsTo('POST', '/api/auth/mfa/enroll')).toHaveLength(1);
    expect(staffCalls(app.calls)).toEqual([]);
  });

  it('asks an enrolled staff member for a code, shows a refusal under the field, and returns to the page asked for', async () => {
    let tries = 0;
    const app = renderApp(
      `/staff/accounts/${SELLER_ID}`,
      staffApi({
        'GET /api/user': { body: notPassed(true) },
        'POST /api/auth/mfa/verify': () =>
          ++tries === 1
            ? { status: 400, body: { code: 'invalid_request', message: 'That code is not valid.' } }
            : { body: { message: 'Second factor accepted', user: staffUser, recoveryCodesLeft: 10 } },
      }),
    );
    expect(await screen.findByLabelText('Authentication code')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Set up the second factor' })).not.toBeInTheDocument();
    await app.user.type(screen.getByLabelText('Authentication code'), '000000');
    await app.user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('That code is not valid.')).toBeInTheDocument();
    await app.user.clear(screen.getByLabelText('Authentication code'));
    await app.user.type(screen.getByLabelText('Authentication code'), 'abcde-fghij');
    await app.user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(app.location()).toBe(`/staff/accounts/${SELLER_ID}`));
    expect(await findToast('Second factor accepted')).toBeInTheDocument();
  });

  it('goes to the code prompt when a staff call answers 403 staff_mfa_required', async () => {
    let users = 0;
    const app = renderApp(
      '/staff?q=seller',
      staffApi({
        'GET /api/user': () => ({ body: ++users === 1 ? staffUser : notPassed(true) }),
        'GET /api/staff/accounts': { status: 403, body: { code: 'staff_mfa_required', message: 'Second factor needed' } },
      }),
    );
    expect(await screen.findByLabelText('Authentication code')).toBeInTheDocument();
    expect(app.location()).toBe('/staff/mfa');
  });
});

describe('staff audit trail', () => {
  beforeAll(loadStaffRoutes, 60_000);

  const page1: AuditPage = {
    entries: [
      {
        at: '2026-11-24T12:00:00Z',
        actorId: STAFF_ID,
        actorEmail: 'support@example.com',
        accountId: SELLER_ID,
        accountEmail: 'seller@example.com',
        action: 'account.adjustment',
        detail: '+25 credits: goodwill',
        requestId: 'r2',
      },
    ],
    nextCursor: 'c2',
  };
  const page2: AuditPage = {
    entries: [
      {
        at: '2026-11-24T11:00:00Z',
        actorId: STAFF_ID,
        actorEmail: 'support@example.com',
        accountId: null,
        accountEmail: null,
        action: 'search',
        detail: 'q=seller',
        requestId: 'r1',
      },
    ],
  };

  it('lists the trail newest first, loads more through the cursor and filters by account and staff member', async () => {
    const app = renderApp(
      '/staff',
      staffApi({
        'GET /api/staff/audit': ({ url }) => ({ body: url.includes('cursor=c2') ? page2 : page1 }),
      }),
    );
    await app.user.click(await screen.findByRole('link', { name: 'Audit trail' }));
    const table = await within(await screen.findByRole('region', { name: 'Audit table' })).findByRole('table');
    const rows = () => within(table).getAllByRole('row').slice(1);
    expect(within(rows()[0]).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'Nov 24, 2026 12:00:00',
      'support@example.com',
      'account.adjustment',
      'seller@example.com',
      '+25 credits: goodwill',
    ]);
    expect(within(rows()[0]).getByRole('link', { name: 'seller@example.com' })).toHaveAttribute('href', `/staff/accounts/${SELLER_ID}`);
    await app.user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()[1]).toHaveTextContent('none');

    await app.user.type(screen.getByLabelText('Account id'), SELLER_ID);
    await app.user.type(screen.getByLabelText('Staff member (email or id)'), 'support@example.com');
    await app.user.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() =>
      expect(app.calls.map((c) => c.url)).toContain(
        `/api/staff/audit?accountId=${SELLER_ID}&actor=support%40example.com`,
      ),
    );
    expect(app.location()).toMatch(/^\/staff\/audit\?accountId=/);
  });
});

describe('staff account page and idempotent adjustments', () => {
  beforeAll(loadStaffRoutes, 60_000);

  it('lists the payments with what can still be refunded, and a Refund button on each refundable one', async () => {
    renderApp(`/staff/accounts/${SELLER_ID}`, staffApi());
    const table = await within(await screen.findByRole('region', { name: 'Payments table' })).findByRole('table');
    const row = within(table).getAllByRole('row')[1];
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'Nov 21, 2026 10:15:30',
      'pi_1',
      '100 credits',
      '$10.00',
      '100',
      'partially refunded',
      '$7.00 (70 credits)',
      'Refund',
    ]);
    expect(within(row).getByRole('button', { name: 'Refund pi_1' })).toBeInTheDocument();
  });

  it('offers no refund of a payment refunded in full', async () => {
    const view = accountView();
    view.payments = [{ ...view.payments[0], status: 'refunded', refundedCents: 1000, refundableCents: 0, refundableCredits: 0 }];
    renderApp(`/staff/accounts/${SELLER_ID}`, staffApi({ [`GET ${accountPath}`]: { body: view } }));
    const table = await within(await screen.findByRole('region', { name: 'Payments table' })).findByRole('table');
    expect(within(table).getByText('refunded')).toBeInTheDocument();
    expect(within(table).queryByRole('button')).not.toBeInTheDocument();
  });

  it('sends one Idempotency-Key per adjustment: the same on a retry, a new one for the next', async () => {
    let posts = 0;
    const app = renderApp(
      `/staff/accounts/${SELLER_ID}`,
      staffApi({
        [`POST ${accountPath}/adjustments`]: () =>
          ++posts === 1
            ? { status: 503, body: { code: 'service_unavailable', message: 'The service is briefly unavailable' } }
            : { status: 201, body: { balance: 120, position: 104 } },
      }),
    );
    const form = await screen.findByRole('region', { name: 'Adjust credits' });
    await app.user.type(within(form).getByLabelText('Credits'), '25');
    await app.user.type(within(form).getByLabelText('Reason'), 'goodwill');
    const submit = within(form).getByRole('button', { name: 'Record adjustment' });
    await app.user.click(submit);
    expect(await findToast('Adjustment failed')).toBeInTheDocument();
    await app.user.click(submit);
    expect(await findToast('Adjustment recorded')).toBeInTheDocument();
    await app.user.type(within(form).getByLabelText('Credits'), '5');
    await app.user.type(within(form).getByLabelText('Reason'), 'another');
    await app.user.click(within(form).getByRole('button', { name: 'Record adjustment' }));
    await waitFor(() => expect(app.callsTo('POST', `${accountPath}/adjustments`)).toHaveLength(3));
    const keys = app.callsTo('POST', `${accountPath}/adjustments`).map((c) => c.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });
});
