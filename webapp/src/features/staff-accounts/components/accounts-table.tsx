import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { SubscriptionStatusBadge } from '@/components/subscription-status-badge';
import { paths } from '@/config/paths';
import { formatCredits } from '@/lib/format';
import type { AccountSummary } from '@/features/staff-accounts/api/search-accounts';

/** Search hits: each email links to the account's page. */
export function AccountsTable({ accounts }: { accounts: AccountSummary[] }) {
  return (
    <div className="table-wrap" role="region" aria-label="Accounts table" tabIndex={0}>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Account id</th>
            <th scope="col" className="num">
              Credits
            </th>
            <th scope="col">Subscription</th>
            <th scope="col">Role</th>
          </tr>
        </thead>
        <tbody>
          {accounts.map((a) => (
            <tr key={a.id}>
              <td>
                <Link className="link" to={paths.staffAccount(a.id)}>
                  {a.email}
                </Link>
              </td>
              <td>
                <code className="staff-id">{a.id}</code>
              </td>
              <td className="num">
                {formatCredits(a.creditsAvailable)}
                {(a.creditDebt ?? 0) > 0 && <div className="credit-out">owes {formatCredits(a.creditDebt ?? 0)}</div>}
              </td>
              <td>
                <SubscriptionStatusBadge status={a.subscriptionStatus} endsAt={a.subscriptionEndsAt} />
                {a.spendingFrozen && (
                  <>
                    {' '}
                    <Badge tone="danger">Spending frozen</Badge>
                  </>
                )}
              </td>
              <td>{a.isStaff ? <Badge tone="info">Staff</Badge> : <span className="muted">Seller</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
