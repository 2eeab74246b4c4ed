import { describe, expect, it } from 'vitest';
import { usageDailyReply } from '@/testing/usage-daily-data';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { lastDays } from '../api/get-usage-daily';

const day = (offset: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};
const readout = (date: string) => new Date(`${date}T12:00:00`).toLocaleDateString('en-US', { month: 'short', day: '2-digit', year: 'numeric' });

describe('daily usage chart', () => {
  it('asks for the last 30 UTC days and draws one bar a day, today’s the tallest', async () => {
    const app = renderApp('/dashboard', { 'GET /api/usage/daily': usageDailyReply({ [day(0)]: 7, [day(-3)]: 2 }) });
    const chart = await screen.findByRole('img', { name: /Credits used per day/ });
    const { from, to } = lastDays(30);
    expect(to).toBe(day(0));
    expect(from).toBe(day(-29));
    expect(app.calls.filter((c) => c.path === '/api/usage/daily').map((c) => new URL(c.url, 'http://x').search)).toContain(`?from=${from}&to=${to}`);
    expect(chart).toHaveAccessibleName(/9 credits in all, at most 7 a day/);
    const bars = chart.querySelectorAll('rect');
    expect(bars).toHaveLength(30);
    const heights = [...bars].map((b) => Number(b.getAttribute('height')));
    expect(bars[29]).toHaveAttribute('data-date', day(0));
    expect(heights[29]).toBe(Math.max(...heights));
    expect(heights[26]).toBeCloseTo((heights[29] * 2) / 7);
    expect(heights.filter((h) => h === 0)).toHaveLength(28);
  });

  it('reads each day out as the arrow keys move along the bars', async () => {
    const app = renderApp('/dashboard', { 'GET /api/usage/daily': usageDailyReply({ [day(0)]: 7, [day(-1)]: 1 }) });
    const chart = await screen.findByRole('img', { name: /Credits used per day/ });
    // Today is read out first; the readout describes the chart.
    expect(chart).toHaveAccessibleDescription(`${readout(day(0))}, 7 credits used, 1 listing, 0 VeRO checks, 0 credits refunded`);
    await app.user.tab();
    while (document.activeElement !== chart) await app.user.tab();
    await app.user.keyboard('{ArrowLeft}');
    expect(screen.getByText(`${readout(day(-1))}, 1 credit used, 1 listing, 0 VeRO checks, 0 credits refunded`)).toBeInTheDocument();
    expect(chart.querySelectorAll('rect')[28]).toHaveClass('is-selected');
    await app.user.keyboard('{Home}');
    expect(screen.getByText(`${readout(day(-29))}, 0 credits used, 0 listings, 0 VeRO checks, 0 credits refunded`)).toBeInTheDocument();
    await app.user.keyboard('{ArrowLeft}'); // stays on the first day
    expect(chart.querySelectorAll('rect')[0]).toHaveClass('is-selected');
    await app.user.keyboard('{End}');
    expect(chart.querySelectorAll('rect')[29]).toHaveClass('is-selected');
  });

  it('has the same days as a table and their CSV', async () => {
    const app = renderApp('/dashboard', { 'GET /api/usage/daily': usageDailyReply({ [day(0)]: 7 }) });
    await app.user.click(await screen.findByText('Show as a table'));
    const table = screen.getByRole('region', { name: 'Daily usage table' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(31);
    expect(within(rows[30]).getAllByRole('cell').map((c) => c.textContent)).toEqual(['7', '1', '0', '0']);
    const { from, to } = lastDays(30);
    const link = screen.getByRole('link', { name: 'Download CSV' });
    expect(link).toHaveAttribute('href', `/api/usage/daily.csv?from=${from}&to=${to}`);
    expect(link).toHaveAttribute('download');
  });

  it('offers a retry when the days do not load', async () => {
    const app = renderApp('/dashboard', { 'GET /api/usage/daily': { status: 500, body: { message: 'down' } } });
    expect(await screen.findByRole('heading', { name: 'Could not load daily usage' })).toBeInTheDocument();
    await waitFor(() => expect(app.callsTo('GET', '/api/usage/daily').length).toBeGreaterThan(0));
  });

  it('filters by API key when the seller has several: the chart and its CSV are the chosen key’s', async () => {
    const keys = [
      { id: 'k-default', name: 'Default', prefix: 'a2e_live_ab', mode: 'live', isDefault: true },
      { id: 'k-laptop', name: 'Laptop', prefix: 'a2e_live_cd', mode: 'live', isDefault: false },
      { id: 'k-test', name: 'Sandbox', prefix: 'a2e_test_ef', mode: 'test', isDefault: false },
    ];
    const app = renderApp('/dashboard', {
      'GET /api/usage/daily': usageDailyReply({ [day(0)]: 7 }),
      'GET /api/api-keys': { body: keys },
    });
    const picker = await screen.findByLabelText('API key');
    expect(within(picker).getAllByRole('option').map((o) => o.textContent)).toEqual(['All keys', 'Default (a2e_live_ab…)', 'Laptop (a2e_live_cd…)']);
    await app.user.selectOptions(picker, 'k-laptop');
    const { from, to } = lastDays(30);
    await waitFor(() =>
      expect(app.calls.filter((c) => c.path === '/api/usage/daily').map((c) => new URL(c.url, 'http://x').search)).toContain(
        `?from=${from}&to=${to}&key=k-laptop`,
      ),
    );
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', `/api/usage/daily.csv?from=${from}&to=${to}&key=k-laptop`);
  });
});

describe('transactions CSV', () => {
  it('downloads the last 366 days', async () => {
    renderApp('/transactions');
    const link = await screen.findByRole('link', { name: 'Download CSV (last 12 months)' });
    expect(link).toHaveAttribute('href', `/api/transactions.csv?from=${day(-365)}&to=${day(0)}`);
    expect(link).toHaveAttribute('download');
  });
});
