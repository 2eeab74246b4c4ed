import { Link } from 'react-router';
import type { SWRInfiniteResponse } from 'swr/infinite';
import { Spinner } from '@/components/ui/spinner';
import { serverMessage } from '@/lib/api-client';
import { formatDate, TIME_TO_SECOND_FORMAT } from '@/lib/dates';
import { paths } from '@/config/paths';
import type { AuditPage } from '../api/get-audit';
import { LoadMore } from '@/components/ui/load-more';
import { SectionCard } from '@/components/ui/section-card';
import '@/styles/staff.css';

/** The audit trail, newest first, with "Load more" while the server has a next page. */
export function AuditCard({ audit }: { audit: SWRInfiniteResponse<AuditPage> }) {
  const { data, error, isLoading, size, setSize } = audit;
  const entries = data?.flatMap((page) => page.entries) ?? [];
  const last = data?.[data.length - 1];
  const loadingMore = !!data && size > data.length;

  return (
    <SectionCard title="Audit trail" description="Every staff look at an account and every staff action, newest first.">
      {isLoading && <Spinner label="Loading the audit trail" />}
      {error && <p className="alert alert-error">{serverMessage(error) ?? 'Could not load the audit trail.'}</p>}
      {data &&
        (entries.length === 0 ? (
          <p className="empty">Nothing recorded for this filter</p>
        ) : (
          <div className="table-wrap" role="region" aria-label="Audit table" tabIndex={0}>
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Staff member</th>
                  <th scope="col">Action</th>
                  <th scope="col">Account</th>
                  <th scope="col">Detail</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e, i) => (
                  <tr key={`${e.at}-${e.requestId}-${i}`}>
                    <td className="staff-time">{formatDate(e.at, TIME_TO_SECOND_FORMAT)}</td>
                    <td>{e.actorEmail || <code>{e.actorId}</code>}</td>
                    <td>
                      <code>{e.action}</code>
                      {e.outcome === 'refused' && <span className="muted"> (refused)</span>}
                    </td>
                    <td>
                      {e.accountId ? (
                        <Link className="link" to={paths.staffAccount(e.accountId)}>
                          {e.accountEmail ?? e.accountId}
                        </Link>
                      ) : (
                        <span className="muted">none</span>
                      )}
                    </td>
                    <td>{e.detail}</td>
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
