import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { SubscriptionStatusBadge } from '@/features/profile/components/subscription-status-badge';
import type { AccountSummary } from '../api/search-accounts';
import { formatCredits } from './format';

/** Search hits: each email links to the account's page. */
export function AccountsTable({ accounts }: { accounts: AccountSummary[] }) {
  return (
    <div className="table-wrap">
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
                <Link className="link" to={`/staff/accounts/${a.id}`}>
                  {a.email}
                </Link>
              </td>
              <td>
                <code className="staff-id">{a.id}</code>
              </td>
              <td className="num">{formatCredits(a.creditsAvailable)}</td>
              <td>
                <SubscriptionStatusBadge status={a.subscriptionStatus} />
              </td>
              <td>{a.isStaff ? <Badge tone="info">Staff</Badge> : <span className="muted">Seller</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
