import { describe, expect, it, vi } from 'vitest';
import { receipt } from '@/testing/data';
import { renderApp, screen, within } from '@/testing/test-utils';
import { formatUtc } from './receipt';

// /receipts/:paymentId (issue 38): a credit purchase's receipt from GET /api/transactions/{id}.
describe('receipt', () => {
  it('shows what the ledger knows of the payment, and prints', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const app = renderApp('/receipts/pi_t4', { 'GET /api/transactions/pi_t4': { body: receipt } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Receipt' })).toBeInTheDocument();
    const card = screen.getByRole('region', { name: 'Receipt' });
    const field = (label: string) => within(card).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(within(card).getByText('Amazon to eBay Automation')).toBeInTheDocument();
    expect(field('Billed to')).toBe('seller@example.com');
    expect(field('Payment ID')).toBe('pi_t4');
    expect(field('Date')).toBe('February 20, 2025 at 10:00 AM UTC');
    expect(field('Description')).toBe('Credit purchase: 500 credits');
    expect(field('Credits')).toBe('500');
    expect(field('Amount paid')).toBe('$39.99 USD');
    expect(field('Refunded')).toBe('$8.00 USD');
    expect(field('Payment method')).toBe('Visa ending in 4242');
    expect(within(card).getByText('Partially Refunded')).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
    expect(screen.getByRole('link', { name: 'Transactions' })).toHaveAttribute('href', '/transactions');
  });

  it('leaves off what the ledger does not know: no refund, no card', async () => {
    renderApp('/receipts/pi_t4', {
      'GET /api/transactions/pi_t4': { body: { ...receipt, status: 'paid', refundedAmount: 0, paymentMethod: null } },
    });
    const card = await screen.findByRole('region', { name: 'Receipt' });
    expect(within(card).getByText('Paid')).toBeInTheDocument();
    expect(within(card).queryByText('Refunded')).toBeNull();
    expect(within(card).queryByText('Payment method')).toBeNull();
  });

  it("says so for an unknown id or another seller's payment (404)", async () => {
    renderApp('/receipts/pi_other', { 'GET /api/transactions/pi_other': { status: 404, body: { code: 'not_found', message: 'No such transaction' } } });
    expect(await screen.findByRole('heading', { name: 'Receipt not found' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Print' })).toBeNull();
  });

  it('prints dates in UTC', () => {
    expect(formatUtc('2026-11-27T23:30:00Z')).toBe('November 27, 2026 at 11:30 PM UTC');
  });
});
