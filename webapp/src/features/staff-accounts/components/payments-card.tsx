import type { SWRResponse } from 'swr';
import { Spinner } from '@/components/ui/spinner';
import { TableRegion } from '@/components/ui/table-region';
import { formatCents } from '@/lib/format';
import { formatDate, TIME_TO_SECOND_FORMAT } from '@/lib/dates';
import type { AccountView } from '../api/get-account';
import { RefundDialog } from './refund-dialog';
import { SectionCard } from '@/components/ui/section-card';
import '@/styles/staff.css';
import { formatCredits } from '@/lib/format';

/**
 * The account's payments, oldest first, with what can still be refunded of
 * each and, on each refundable one, a Refund button (RefundDialog, through
 * the payment provider); onRefunded reloads the page's cards.
 */
export function PaymentsCard({
  account,
  onRefunded,
}: {
  account: SWRResponse<AccountView>;
  onRefunded: () => Promise<unknown>;
}) {
  const { data, error, isLoading } = account;
  return (
    <SectionCard
      title="Payments"
      description="Every payment of the account and what can still be refunded of it. Refunds go through Stripe; the timeline shows them, with you and your reason, when Stripe confirms."
    >
      {isLoading && <Spinner label="Loading the payments" />}
      {error && <p className="alert alert-error">Could not load the payments.</p>}
      {data &&
        (data.payments.length === 0 ? (
          <p className="empty">No payments</p>
        ) : (
          <TableRegion label="Payments table">
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
                  <th scope="col">
                    <span className="sr-only">Refund</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.payments.map((p) => (
                  <tr key={p.id}>
                    <td className="staff-time">{formatDate(p.at, TIME_TO_SECOND_FORMAT)}</td>
                    <td>
                      {/* Ids break anywhere: unbroken, they pushed the Refund column out of the card. */}
                      <code className="staff-id">{p.id}</code>
                    </td>
                    <td>{p.description}</td>
                    <td className="num">{formatCents(p.amountCents)}</td>
                    <td className="num">{formatCredits(p.credits)}</td>
                    <td>{p.status.replace(/_/g, ' ')}</td>
                    <td className="num">
                      {formatCents(p.refundableCents)}
                      {p.refundableCredits > 0 && <span className="muted"> ({formatCredits(p.refundableCredits)} credits)</span>}
                    </td>
                    <td>
                      {p.refundableCents > 0 && (
                        <RefundDialog accountId={data.id} paymentId={p.id} refundableCredits={p.refundableCredits} onDone={onRefunded} />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        ))}
    </SectionCard>
  );
}
