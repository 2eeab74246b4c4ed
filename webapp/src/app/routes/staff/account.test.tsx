import { beforeAll, describe, expect, it } from 'vitest';
import type { Call } from '@/testing/fake-api';
import { fireEvent, findToast, renderApp, screen, waitFor, within } from '@/testing/test-utils';
import {
  accountPath,
  accountView,
  loadStaffRoutes,
  adjusted,
  balanceNow,
  consistent,
  drifted,
  purchased,
  registered,
  SELLER_ID,
  spent,
  seller,
  staffApi,
  STAFF_ID,
} from './staff-fixtures';

const page = `/staff/accounts/${SELLER_ID}`;
const region = (name: string) => screen.getByRole('region', { name });
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent);

async function timelineRows() {
  const timeline = await screen.findByRole('region', { name: 'Timeline' });
  const table = await within(timeline).findByRole('table');
  return within(table).getAllByRole('row').slice(1);
}

describe('staff account page', () => {
  beforeAll(loadStaffRoutes, 60_000);

  it('shows what the seller owes and a frozen spending beside the balance', async () => {
    renderApp(
      page,
      staffApi({
        [`GET ${accountPath}`]: { body: accountView({ ...seller, subscriptionStatus: 'past_due', creditDebt: 12, spendingFrozen: true }) },
      }),
    );
    const standing = await within(await screen.findByRole('region', { name: 'Balance' })).findByLabelText('Standing now');
    const pairs = within(standing)
      .getAllByRole('term')
      .map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);
    expect(pairs).toEqual([
      ['Subscription', 'Past Due'],
      ['Credits owed', '12'],
      ['Spending', 'Frozen: a payment dispute is open'],
    ]);
  });

  it("shows the seller's limits, alerts and auto-recharge with their history", async () => {
    const settings = {
      spendLimits: { dailyCredits: 50, monthlyCredits: null },
      alerts: { lowBalanceCredits: 20, expiringReminderDays: null },
      autoRecharge: {
        enabled: false,
        thresholdCredits: 100,
        packCredits: 500,
        packAmountCents: 3999,
        monthlyLimitCents: 8000,
        paymentMethod: { brand: 'visa', last4: '0341' },
        disabledReason: 'failed_charges',
        rechargedThisMonthCents: 0,
      },
      history: [
        { at: '2025-03-01T12:00:00Z', type: 'AutoRechargeSet', description: 'Auto-recharge set on: 500 credits ($39.99) when below 100 credits, at most $80.00 a month' },
        { at: '2025-03-01T13:00:00Z', type: 'AutoRechargeDisabled', description: 'Auto-recharge turned off: failed charges; seller mailed' },
      ],
    };
    renderApp(page, staffApi({ [`GET ${accountPath}`]: { body: { ...accountView(seller), settings } } }));
    const card = await screen.findByRole('region', { name: 'Limits, alerts and auto-recharge' });
    const now = within(card).getByLabelText('Settings now');
    expect(now).toHaveTextContent('daily 50 credits, monthly none');
    expect(now).toHaveTextContent('low balance below 20 credits; expiry reminder off');
    expect(now).toHaveTextContent('off (turned off: failed charges): 500 credits ($39.99) below 100, at most $80.00 a month');
    expect(now).toHaveTextContent('card visa 0341');
    const rows = within(within(card).getByRole('table', { name: 'Settings history' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.lastElementChild?.textContent)).toEqual([settings.history[0].description, settings.history[1].description]);
  });

  it('shows nothing owed and spending allowed normally', async () => {
    renderApp(page, staffApi());
    const balance = await screen.findByRole('region', { name: 'Balance' });
    const standing = await within(balance).findByLabelText('Standing now');
    expect(standing).toHaveTextContent('Credits owed0');
    expect(standing).toHaveTextContent('SpendingAllowed');
  });

  it('shows the timeline oldest first and loads more pages through the cursor', async () => {
    const app = renderApp(page, staffApi());
    expect(await screen.findByRole('heading', { level: 1, name: 'seller@example.com' })).toBeInTheDocument();
    expect(screen.getByText(SELLER_ID)).toBeInTheDocument();

    const timeline = region('Timeline');
    const headers = within(timeline).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Time', 'Type', 'Actor', 'Summary', 'Credit change', 'Running balance']);
    let rows = await timelineRows();
    expect(rows.map(cells)).toEqual([
      ['Nov 20, 2026 09:00:00', 'AccountRegistered', `account:${SELLER_ID}`, 'Registered as seller@example.com', '0', '0'],
      ['Nov 21, 2026 10:15:30', 'CreditsGranted', 'stripe', '100 purchase credits granted', '+100', '100'],
    ]);
    expect(within(rows[1]).getByText('+100')).toHaveClass('credit-in');

    await app.user.click(within(timeline).getByRole('button', { name: 'Load more' }));
    await waitFor(async () => expect(await timelineRows()).toHaveLength(3));
    rows = await timelineRows();
    expect(cells(rows[2])).toEqual([
      'Nov 23, 2026 08:05:09',
      'CreditsSpent',
      'desktop',
      '5 credits spent on listing (B08N5WRWNW)',
      '-5',
      '95',
    ]);
    expect(within(rows[2]).getByText('-5')).toHaveClass('credit-out');
    expect(within(timeline).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    const urls = app.callsTo('GET', `${accountPath}/history`).map((c) => c.url);
    expect(urls[0]).toBe(`${accountPath}/history`);
    expect(urls.filter((u) => u.includes('cursor='))).toEqual([`${accountPath}/history?cursor=p2`]);
  });

  it('shows the balance with its grants', async () => {
    renderApp(page, staffApi());
    const balance = await screen.findByRole('region', { name: 'Balance' });
    expect(await within(balance).findByText('95', { selector: '.stat' })).toBeInTheDocument();
    expect(balance).toHaveTextContent('As of Nov 24, 2026 12:30:00');
    const grants = within(balance).getByRole('table', { name: 'Grants' });
    expect(within(grants).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Source',
      'Amount',
      'Remaining',
      'Expires',
      'Granted',
    ]);
    expect(cells(within(grants).getAllByRole('row')[1])).toEqual(['Purchase', '100', '95', 'Never', 'Nov 21, 2026 10:15:30']);
  });

  it('reloads the timeline and the balance as of the end of a chosen day', async () => {
    const asOf = '2026-11-20T23:59:59.999Z';
    const app = renderApp(page, staffApi({
      [`GET ${accountPath}/history`]: ({ url }) =>
        url.includes('asOf=') ? { body: { entries: [registered] } } : { body: { entries: [registered, purchased, spent] } },
      [`GET ${accountPath}/balance`]: ({ url }) =>
        url.includes('asOf=') ? { body: { asOf, balance: 0, grants: [] } } : { body: balanceNow },
    }));
    expect(await timelineRows()).toHaveLength(3);
    expect(await within(region('Balance')).findByText('95', { selector: '.stat' })).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('As of'), { target: { value: '2026-11-20' } });

    await waitFor(async () => expect(await timelineRows()).toHaveLength(1));
    expect(await within(region('Balance')).findByText('No grants')).toBeInTheDocument();
    expect(within(region('Balance')).getByText('0', { selector: '.stat' })).toBeInTheDocument();
    expect(app.location()).toBe(`${page}?asOf=2026-11-20`);
    const wanted = `asOf=${encodeURIComponent(asOf)}`;
    expect(app.callsTo('GET', `${accountPath}/history`).at(-1)?.url).toBe(`${accountPath}/history?${wanted}`);
    expect(app.callsTo('GET', `${accountPath}/balance`).at(-1)?.url).toBe(`${accountPath}/balance?${wanted}`);
    expect(screen.getByLabelText('As of')).toHaveValue('2026-11-20');

    await app.user.click(screen.getByRole('button', { name: 'Back to now' }));
    await waitFor(async () => expect(await timelineRows()).toHaveLength(3));
    expect(app.location()).toBe(page);
    expect(screen.getByLabelText('As of')).toHaveValue('');
  });

  it('opens as of the day in the address', async () => {
    const app = renderApp(`${page}?asOf=2026-11-21`, staffApi());
    await timelineRows();
    expect(screen.getByLabelText('As of')).toHaveValue('2026-11-21');
    expect(app.callsTo('GET', `${accountPath}/balance`)[0].url).toBe(
      `${accountPath}/balance?asOf=${encodeURIComponent('2026-11-21T23:59:59.999Z')}`,
    );
  });

  it('says the read tables match the events, in green', async () => {
    renderApp(page, staffApi());
    const card = await screen.findByRole('region', { name: 'Read tables vs events' });
    const verdict = await within(card).findByText('Read tables match the events');
    expect(verdict).toHaveClass('staff-verdict-ok');
    expect(within(card).queryByRole('table')).not.toBeInTheDocument();
    expect(card).toHaveTextContent('Up to event #103');
  });

  it('lists the differences in red, and compares again', async () => {
    let answer = drifted;
    const app = renderApp(page, staffApi({ [`GET ${accountPath}/comparison`]: () => ({ body: answer }) }));
    const card = await screen.findByRole('region', { name: 'Read tables vs events' });
    expect(await within(card).findByText('Read tables differ from the events')).toHaveClass('staff-verdict-bad');
    const table = within(card).getByRole('table', { name: 'Differences' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Field', 'Events', 'Read model']);
    expect(within(table).getAllByRole('row').slice(1).map(cells)).toEqual([
      ['creditsAvailable', '95', '100'],
      ['subscriptionStatus', 'active', 'inactive'],
    ]);

    answer = consistent;
    await app.user.click(within(card).getByRole('button', { name: 'Compare again' }));
    expect(await within(card).findByText('Read tables match the events')).toBeInTheDocument();
    expect(within(card).queryByRole('table')).not.toBeInTheDocument();
    expect(app.callsTo('GET', `${accountPath}/comparison`)).toHaveLength(2);
  });

  it('validates the adjustment before posting it', async () => {
    const app = renderApp(page, staffApi());
    const form = await screen.findByRole('region', { name: 'Adjust credits' });
    const credits = within(form).getByLabelText('Credits');
    const reason = within(form).getByLabelText('Reason');
    const submit = within(form).getByRole('button', { name: 'Record adjustment' });

    await app.user.click(submit);
    expect(await within(form).findByText('Credits must be a whole number other than 0')).toBeInTheDocument();
    expect(within(form).getByText('A reason of 3 to 500 characters is required')).toBeInTheDocument();
    expect(credits).toHaveAttribute('aria-invalid', 'true');

    for (const value of ['0', '1.5']) {
      await app.user.clear(credits);
      await app.user.type(credits, value);
      await app.user.type(reason, 'ab');
      await app.user.click(submit);
      expect(await within(form).findByText('Credits must be a whole number other than 0')).toBeInTheDocument();
      expect(within(form).getByText('A reason of 3 to 500 characters is required')).toBeInTheDocument();
      await app.user.clear(reason);
    }

    await app.user.clear(credits);
    await app.user.type(credits, '2000000');
    await app.user.click(reason);
    await app.user.paste('x'.repeat(501));
    await app.user.click(submit);
    expect(await within(form).findByText('Credits must be between -1,000,000 and 1,000,000')).toBeInTheDocument();
    expect(within(form).getByText('A reason of 3 to 500 characters is required')).toBeInTheDocument();
    expect(app.callsTo('POST', `${accountPath}/adjustments`)).toHaveLength(0);
  });

  it('records an adjustment, then reloads the timeline, the balance and the comparison', async () => {
    let recorded = false;
    const app = renderApp(page, staffApi({
      [`POST ${accountPath}/adjustments`]: () => {
        recorded = true;
        return { status: 201, body: { balance: 120, position: 104 } };
      },
      [`GET ${accountPath}/history`]: ({ url }: Call) =>
        url.includes('cursor=p2')
          ? { body: { entries: recorded ? [spent, adjusted] : [spent] } }
          : { body: { entries: [registered, purchased], nextCursor: 'p2' } },
      [`GET ${accountPath}/balance`]: () => ({ body: { ...balanceNow, balance: recorded ? 120 : 95 } }),
    }));
    await app.user.click(await within(await screen.findByRole('region', { name: 'Timeline' })).findByRole('button', { name: 'Load more' }));
    await waitFor(async () => expect(await timelineRows()).toHaveLength(3));
    const comparisons = app.callsTo('GET', `${accountPath}/comparison`).length;

    const form = region('Adjust credits');
    await app.user.type(within(form).getByLabelText('Credits'), '25');
    await app.user.type(within(form).getByLabelText('Reason'), '  goodwill  ');
    await app.user.click(within(form).getByRole('button', { name: 'Record adjustment' }));

    expect(await findToast('Adjustment recorded')).toBeInTheDocument();
    expect(screen.getByText('The balance is now 120 credits.')).toBeInTheDocument();
    expect(app.callsTo('POST', `${accountPath}/adjustments`)[0].body).toEqual({ credits: 25, reason: 'goodwill' });
    // Every loaded page of the timeline is reloaded, so the new event shows at the end.
    await waitFor(async () => expect(await timelineRows()).toHaveLength(4));
    expect(cells((await timelineRows())[3])).toEqual([
      'Nov 24, 2026 12:00:00',
      'CreditsGranted',
      `staff:${STAFF_ID}`,
      '25 adjustment credits granted: goodwill',
      '+25',
      '120',
    ]);
    expect(await within(region('Balance')).findByText('120', { selector: '.stat' })).toBeInTheDocument();
    expect(app.callsTo('GET', `${accountPath}/comparison`).length).toBe(comparisons + 1);
    expect(within(form).getByLabelText('Credits')).toHaveValue(null);
    expect(within(form).getByLabelText('Reason')).toHaveValue('');
  });

  it('removes credits with a negative number', async () => {
    const app = renderApp(page, staffApi({ [`POST ${accountPath}/adjustments`]: { status: 201, body: { balance: 90, position: 104 } } }));
    const form = await screen.findByRole('region', { name: 'Adjust credits' });
    await app.user.type(within(form).getByLabelText('Credits'), '-5');
    await app.user.type(within(form).getByLabelText('Reason'), 'Duplicate grant');
    await app.user.click(within(form).getByRole('button', { name: 'Record adjustment' }));
    expect(await findToast('Adjustment recorded')).toBeInTheDocument();
    expect(app.callsTo('POST', `${accountPath}/adjustments`)[0].body).toEqual({ credits: -5, reason: 'Duplicate grant' });
  });

  it("shows the server's message in a red toast when the adjustment is refused", async () => {
    const app = renderApp(page, staffApi({
      [`POST ${accountPath}/adjustments`]: { status: 402, body: { message: 'Insufficient credits' } },
    }));
    const form = await screen.findByRole('region', { name: 'Adjust credits' });
    await app.user.type(within(form).getByLabelText('Credits'), '-500');
    await app.user.type(within(form).getByLabelText('Reason'), 'Chargeback');
    await app.user.click(within(form).getByRole('button', { name: 'Record adjustment' }));

    const title = await findToast('Adjustment failed');
    expect(title.closest('.toast')).toHaveClass('toast-destructive');
    expect(screen.getByText('Insufficient credits')).toBeInTheDocument();
    // The form keeps what was typed, to correct it.
    expect(within(form).getByLabelText('Credits')).toHaveValue(-500);
  });

  it("puts the server's field messages under the fields", async () => {
    const app = renderApp(page, staffApi({
      [`POST ${accountPath}/adjustments`]: {
        status: 400,
        body: { message: 'A reason of 3 to 500 characters is required', errors: { reason: 'A reason of 3 to 500 characters is required' } },
      },
    }));
    const form = await screen.findByRole('region', { name: 'Adjust credits' });
    await app.user.type(within(form).getByLabelText('Credits'), '5');
    await app.user.type(within(form).getByLabelText('Reason'), 'ééé');
    await app.user.click(within(form).getByRole('button', { name: 'Record adjustment' }));
    expect(await findToast('Adjustment failed')).toBeInTheDocument();
    expect(within(form).getByLabelText('Reason')).toHaveAttribute('aria-invalid', 'true');
  });

  it('rebuilds a projection after confirmation, then compares again', async () => {
    const app = renderApp(page, staffApi({
      'POST /api/staff/projections/usage_statistics/rebuild': {
        body: { message: 'Projection usage_statistics rebuilt', projection: 'usage_statistics', ms: 42 },
      },
    }));
    const card = await screen.findByRole('region', { name: 'Projections' });
    const select = within(card).getByLabelText('Projection');
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['profiles', 'usage_statistics', 'transactions']);
    await app.user.selectOptions(select, 'usage_statistics');

    await app.user.click(within(card).getByRole('button', { name: 'Rebuild projection' }));
    let dialog = await screen.findByRole('dialog', { name: 'Rebuild projection' });
    expect(dialog).toHaveTextContent('The usage_statistics table is rebuilt from every event');
    await app.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(app.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    const comparisons = app.callsTo('GET', `${accountPath}/comparison`).length;
    await app.user.click(within(card).getByRole('button', { name: 'Rebuild projection' }));
    dialog = await screen.findByRole('dialog', { name: 'Rebuild projection' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Rebuild' }));
    expect(await findToast('Projection usage_statistics rebuilt')).toBeInTheDocument();
    expect(screen.getByText('Done in 42 ms.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(app.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/staff/projections/usage_statistics/rebuild']);
    await waitFor(() => expect(app.callsTo('GET', `${accountPath}/comparison`).length).toBe(comparisons + 1));
  });

  it('reports a failed rebuild in a red toast', async () => {
    const app = renderApp(page, staffApi({
      'POST /api/staff/projections/profiles/rebuild': { status: 500, body: { message: 'Internal server error' } },
    }));
    const card = await screen.findByRole('region', { name: 'Projections' });
    await app.user.click(within(card).getByRole('button', { name: 'Rebuild projection' }));
    await app.user.click(within(await screen.findByRole('dialog', { name: 'Rebuild projection' })).getByRole('button', { name: 'Rebuild' }));
    const title = await findToast('Rebuild failed');
    expect(title.closest('.toast')).toHaveClass('toast-destructive');
    expect(screen.getByText('Internal server error')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Rebuild projection' })).toBeInTheDocument();
  });

  it('says when no account has the id', async () => {
    const other = '11111111-2222-4333-8444-555555555555';
    renderApp(`/staff/accounts/${other}`, staffApi({
      [`GET /api/staff/accounts/${other}/history`]: { status: 404, body: { message: 'Account not found' } },
    }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Account not found' })).toBeInTheDocument();
    expect(screen.getByText(`No account has the id ${other}.`)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Search accounts' })).toHaveAttribute('href', '/staff');
  });
});
