import type { SWRResponse } from 'swr';
import { Spinner } from '@/components/ui/spinner';
import { capitalize } from '@/lib/format';
import { formatDate, TIME_TO_SECOND_FORMAT } from '@/lib/dates';
import { SubscriptionStatusBadge } from '@/components/subscription-status-badge';
import type { BalanceReport } from '../api/get-account-balance';
import { SectionCard } from '@/components/ui/section-card';
import '@/styles/staff.css';
import { formatCredits } from '@/lib/format';
import type { AccountSummary } from '@/features/staff-accounts/api/search-accounts';

/**
 * The account's standing now (subscription, credits owed, spending frozen
 * by an open dispute), from the search answer: the read tables, not the
 * as-of replay.
 */
export function AccountStanding({ account }: { account: AccountSummary }) {
  const debt = account.creditDebt ?? 0;
  return (
    <div role="group" aria-label="Standing now">
      <dl className="staff-standing">
        <div>
          <dt>Subscription</dt>
          <dd>
            <SubscriptionStatusBadge status={account.subscriptionStatus} endsAt={account.subscriptionEndsAt} />
          </dd>
        </div>
        <div>
          <dt>Credits owed</dt>
          <dd className={debt > 0 ? 'credit-out' : undefined}>{formatCredits(debt)}</dd>
        </div>
        <div>
          <dt>Spending</dt>
          <dd>
            {account.spendingFrozen ? (
              <span className="credit-out">Frozen: a payment dispute is open</span>
            ) : (
              <span>Allowed</span>
            )}
          </dd>
        </div>
      </dl>
    </div>
  );
}

/** The balance at the as-of moment and the grants it is made of; the standing now when the account is known. */
export function BalanceCard({ balance, account }: { balance: SWRResponse<BalanceReport>; account?: AccountSummary }) {
  const { data, error, isLoading } = balance;
  return (
    <SectionCard
      title="Balance"
      description={data ? `As of ${formatDate(data.asOf, TIME_TO_SECOND_FORMAT)}` : 'Replayed from the events alone.'}
    >
      {isLoading && <Spinner label="Loading the balance" />}
      {error && <p className="alert alert-error">Could not load the balance.</p>}
      {data && (
        <>
          <p className="stat">
            {formatCredits(data.balance)} <span className="muted">credits</span>
          </p>
          {account && <AccountStanding account={account} />}
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
                        {g.expiresAt ? formatDate(g.expiresAt, TIME_TO_SECOND_FORMAT) : <span className="muted">Never</span>}
                      </td>
                      <td className="staff-time">{formatDate(g.grantedAt, TIME_TO_SECOND_FORMAT)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </SectionCard>
  );
}
