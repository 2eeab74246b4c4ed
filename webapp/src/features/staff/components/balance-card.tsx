import type { SWRResponse } from 'swr';
import { Spinner } from '@/components/ui/spinner';
import { capitalize, formatDate } from '@/lib/format';
import type { BalanceReport } from '../api/get-account-balance';
import { formatCredits, STAFF_TIME_FORMAT } from './format';
import { StaffCard } from './staff-card';
import './staff.css';

/** The balance at the as-of moment and the grants it is made of. */
export function BalanceCard({ balance }: { balance: SWRResponse<BalanceReport> }) {
  const { data, error, isLoading } = balance;
  return (
    <StaffCard
      title="Balance"
      description={data ? `As of ${formatDate(data.asOf, STAFF_TIME_FORMAT)}` : 'Replayed from the events alone.'}
    >
      {isLoading && <Spinner label="Loading the balance" />}
      {error && <p className="alert alert-error">Could not load the balance.</p>}
      {data && (
        <>
          <p className="stat">
            {formatCredits(data.balance)} <span className="muted">credits</span>
          </p>
          {data.grants.length === 0 ? (
            <p className="empty">No grants</p>
          ) : (
            <div className="table-wrap" role="region" aria-label="Grants table" tabIndex={0}>
              <table className="table">
                <caption className="sr-only">Grants</caption>
                <thead>
                  <tr>
                    <th scope="col">Source</th>
                    <th scope="col" className="num">
                      Amount
                    </th>
                    <th scope="col" className="num">
                      Remaining
                    </th>
                    <th scope="col">Expires</th>
                    <th scope="col">Granted</th>
                  </tr>
                </thead>
                <tbody>
                  {data.grants.map((g) => (
                    <tr key={g.id}>
                      <td>{capitalize(g.source)}</td>
                      <td className="num">{formatCredits(g.amount)}</td>
                      <td className="num">{formatCredits(g.remaining)}</td>
                      <td className="staff-time">
                        {g.expiresAt ? formatDate(g.expiresAt, STAFF_TIME_FORMAT) : <span className="muted">Never</span>}
                      </td>
                      <td className="staff-time">{formatDate(g.grantedAt, STAFF_TIME_FORMAT)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </StaffCard>
  );
}
