import type { SWRResponse } from 'swr';
import { Spinner } from '@/components/ui/spinner';
import { formatCents, formatDate } from '@/lib/format';
import type { AccountView } from '../api/get-account';
import { formatCredits, STAFF_TIME_FORMAT } from './format';
import { StaffCard } from './staff-card';
import './staff.css';

/** The account's payments, oldest first, with what can still be refunded of each. */
export function PaymentsCard({ account }: { account: SWRResponse<AccountView> }) {
  const { data, error, isLoading } = account;
  return (
    <StaffCard title="Payments" description="Every payment of the account and what can still be refunded of it.">
      {isLoading && <Spinner label="Loading the payments" />}
      {error && <p className="alert alert-error">Could not load the payments.</p>}
      {data &&
        (data.payments.length === 0 ? (
          <p className="empty">No payments</p>
        ) : (
          <div className="table-wrap" role="region" aria-label="Payments table" tabIndex={0}>
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Payment</th>
                  <th scope="col">Description</th>
                  <th scope="col" className="num">
                    Amount
                  </th>
                  <th scope="col" className="num">
                    Credits
                  </th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Refundable
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.payments.map((p) => (
                  <tr key={p.id}>
                    <td className="staff-time">{formatDate(p.at, STAFF_TIME_FORMAT)}</td>
                    <td>
                      <code>{p.id}</code>
                    </td>
                    <td>{p.description}</td>
                    <td className="num">{formatCents(p.amountCents)}</td>
                    <td className="num">{formatCredits(p.credits)}</td>
                    <td>{p.status.replace(/_/g, ' ')}</td>
                    <td className="num">
                      {formatCents(p.refundableCents)}
                      {p.refundableCredits > 0 && <span className="muted"> ({formatCredits(p.refundableCredits)} credits)</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
    </StaffCard>
  );
}
