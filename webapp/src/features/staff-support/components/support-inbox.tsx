import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { SubscriptionStatusBadge } from '@/components/subscription-status-badge';
import { paths } from '@/config/paths';
import { SUPPORT_STATUSES, useSupportInbox, type SupportStatus } from '../api/get-support-inbox';
import { formatDate, TIME_TO_SECOND_FORMAT } from '@/lib/dates';
import { LoadMore } from '@/components/ui/load-more';
import { SupportStatusBadge } from './support-status-badge';
import { formatCredits } from '@/lib/format';

/** Support requests newest first, of the chosen status, each with its seller's account. */
export function SupportInbox({ status, onStatus }: { status: SupportStatus | ''; onStatus: (s: SupportStatus | '') => void }) {
  const inbox = useSupportInbox(status);
  const requests = inbox.data?.flatMap((p) => p.requests) ?? [];
  const more = inbox.data ? Boolean(inbox.data[inbox.data.length - 1]?.nextCursor) : false;

  return (
    <div className="stack">
      <label className="field">
        <span className="field-label">Status</span>
        <select className="input" value={status} onChange={(e) => onStatus(e.target.value as SupportStatus | '')}>
          <option value="">All</option>
          {SUPPORT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s[0].toUpperCase() + s.slice(1)}
            </option>
          ))}
        </select>
      </label>
      {inbox.error ? (
        <LoadError what="the support requests" onRetry={() => void inbox.mutate()} />
      ) : !inbox.data ? (
        <Spinner label="Loading support requests" />
      ) : requests.length === 0 ? (
        <p className="muted">No support requests{status ? ` with status ${status}` : ''}.</p>
      ) : (
        <div className="table-wrap" role="region" aria-label="Support requests" tabIndex={0}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Subject</th>
                <th scope="col">Status</th>
                <th scope="col">Seller</th>
                <th scope="col" className="num">
                  Credits
                </th>
                <th scope="col">Subscription</th>
              </tr>
            </thead>
            <tbody>
              {requests.map((r) => (
                <tr key={r.id}>
                  <td className="staff-time">{formatDate(r.createdAt, TIME_TO_SECOND_FORMAT)}</td>
                  <td>
                    <Link className="link" to={paths.staffSupportRequest(r.id)}>
                      {r.subject}
                    </Link>
                  </td>
                  <td>
                    <SupportStatusBadge status={r.status} />
                  </td>
                  <td>{r.email}</td>
                  <td className="num">
                    {r.account ? formatCredits(r.account.creditsAvailable) : '–'}
                    {(r.account?.creditDebt ?? 0) > 0 && (
                      <div className="credit-out">owes {formatCredits(r.account?.creditDebt ?? 0)}</div>
                    )}
                  </td>
                  <td>
                    {r.account && <SubscriptionStatusBadge status={r.account.subscriptionStatus} endsAt={r.account.subscriptionEndsAt} />}
                    {r.account?.spendingFrozen && (
                      <>
                        {' '}
                        <Badge tone="danger">Spending frozen</Badge>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LoadMore show={Boolean(more)} busy={inbox.isValidating} onLoad={() => void inbox.setSize(inbox.size + 1)} />
    </div>
  );
}
