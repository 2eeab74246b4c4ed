import type { SWRInfiniteResponse } from 'swr/infinite';
import { Spinner } from '@/components/ui/spinner';
import { formatDate, TIME_TO_SECOND_FORMAT } from '@/lib/dates';
import type { HistoryPage } from '../api/get-account-history';
import { CreditChange } from './credit-change';
import { LoadMore } from '@/components/ui/load-more';
import { SectionCard } from '@/components/ui/section-card';
import '@/styles/staff.css';
import { formatCredits } from '@/lib/format';

/** The account's events, oldest first, with "Load more" while the server has a next page. */
export function HistoryCard({ history }: { history: SWRInfiniteResponse<HistoryPage> }) {
  const { data, error, isLoading, size, setSize } = history;
  const entries = data?.flatMap((page) => page.entries) ?? [];
  const last = data?.[data.length - 1];
  const loadingMore = !!data && size > data.length;

  return (
    <SectionCard title="Timeline" description="Every event of the account, oldest first, with the balance after it.">
      {isLoading && <Spinner label="Loading the timeline" />}
      {error && <p className="alert alert-error">Could not load the timeline.</p>}
      {data &&
        (entries.length === 0 ? (
          <p className="empty">No events up to this moment</p>
        ) : (
          <div className="table-wrap" role="region" aria-label="Events table" tabIndex={0}>
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Type</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Summary</th>
                  <th scope="col" className="num">
                    Credit change
                  </th>
                  <th scope="col" className="num">
                    Running balance
                  </th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <tr key={e.position}>
                    <td className="staff-time">{formatDate(e.time, TIME_TO_SECOND_FORMAT)}</td>
                    <td>{e.type}</td>
                    <td>
                      <code>{e.actor || 'unknown'}</code>
                      {e.reason && <div className="muted">Reason: {e.reason}</div>}
                    </td>
                    <td>{e.summary}</td>
                    <td className="num">
                      <CreditChange value={e.creditChange} />
                    </td>
                    <td className="num">{formatCredits(e.runningBalance)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      <LoadMore show={Boolean(last?.nextCursor)} busy={loadingMore} onLoad={() => void setSize(size + 1)} />
    </SectionCard>
  );
}
