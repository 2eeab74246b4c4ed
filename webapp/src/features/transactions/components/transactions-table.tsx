import { ExternalLink } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { formatCents } from '@/lib/format';
import { formatDate } from '@/lib/dates';
import type { Transaction } from '../api/get-transactions';
import { TransactionStatusBadge } from './transaction-status-badge';

/**
 * Date, Description, Amount, Status and (optionally) Invoice columns. The
 * Invoice column links Stripe's hosted invoice (a subscription payment's,
 * new tab) or our printable receipt (a paid credit purchase's); a payment
 * with neither (failed, pending) reads "No invoice" to screen readers.
 */
export function TransactionsTable({
  transactions,
  showInvoice = true,
  otherStatusLabel,
  emptyText = 'No transactions found',
}: {
  transactions: Transaction[];
  showInvoice?: boolean;
  /** How a status other than paid or pending reads ("Failed" on /transactions). */
  otherStatusLabel?: string;
  /** What shows when there are none. */
  emptyText?: string;
}) {
  if (transactions.length === 0) return <p className="empty">{emptyText}</p>;
  return (
    <div className="table-wrap" role="region" aria-label="Transactions table" tabIndex={0}>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Description</th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col">Status</th>
            {showInvoice && <th scope="col">Invoice</th>}
          </tr>
        </thead>
        <tbody>
          {transactions.map((t) => (
            <tr key={t.id}>
              <td className="nowrap">{formatDate(t.transactionDate)}</td>
              <td>{t.description}</td>
              <td className="num">{formatCents(t.amount)}</td>
              <td>
                <TransactionStatusBadge status={t.status} otherLabel={otherStatusLabel} />
              </td>
              {showInvoice && (
                <td>
                  {t.invoiceUrl ? (
                    <a href={t.invoiceUrl} className="link" target="_blank" rel="noreferrer">
                      Invoice <ExternalLink size={14} aria-hidden />
                      <span className="sr-only"> for {t.description} (opens in a new tab)</span>
                    </a>
                  ) : t.receiptUrl ? (
                    <Link to={paths.receipt(t.id)} className="link">
                      Receipt<span className="sr-only"> for {t.description}</span>
                    </Link>
                  ) : (
                    <span className="muted">
                      <span aria-hidden>—</span>
                      <span className="sr-only">No invoice</span>
                    </span>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
