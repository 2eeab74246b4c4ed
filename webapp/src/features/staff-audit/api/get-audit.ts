import useSWRInfinite from 'swr/infinite';
import { api } from '@/lib/api-client';
import { revalidateOnShow } from '@/lib/swr-config';

/** One line of the staff audit trail: who did what, to which account, when. */
export type AuditEntry = {
  /** ISO time. */
  at: string;
  actorId: string;
  actorEmail: string;
  accountId: string | null;
  accountEmail: string | null;
  action: string;
  detail: string;
  /** The server's id of the request. */
  requestId: string;
  /** An X-Request-ID the client sent, if any: not the request's id. */
  clientRequestId?: string;
  /** `done`, or `refused`: the API answered an error and did nothing. */
  outcome?: 'done' | 'refused';
};

export type AuditPage = { entries: AuditEntry[]; nextCursor?: string };

export type AuditFilter = { accountId?: string; actor?: string };

/** The key of page `index`, newest first; null after the last page. */
export function auditPageKey(filter: AuditFilter) {
  return (index: number, previous: AuditPage | null): string | null => {
    if (previous && !previous.nextCursor) return null;
    const params = new URLSearchParams();
    if (filter.accountId) params.set('accountId', filter.accountId);
    if (filter.actor) params.set('actor', filter.actor);
    if (index > 0 && previous?.nextCursor) params.set('cursor', previous.nextCursor);
    const query = params.toString();
    return `/api/staff/audit${query ? `?${query}` : ''}`;
  };
}

export const getAuditPage = (key: string) => api.get<AuditPage>(key);

/** The audit trail, newest first, filtered by account and staff member; more pages come with setSize. */
export function useAuditTrail(filter: AuditFilter) {
  return useSWRInfinite<AuditPage>(auditPageKey(filter), getAuditPage, revalidateOnShow);
}
