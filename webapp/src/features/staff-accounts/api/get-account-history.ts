import useSWRInfinite from 'swr/infinite';
import { api } from '@/lib/api-client';
import { revalidateOnShow } from '@/lib/swr-config';

export type HistoryEntry = {
  version: number;
  position: number;
  /** ISO time. */
  time: string;
  type: string;
  actor: string;
  /** Why a staff member asked for it (a refund or cancellation from the console). */
  reason?: string;
  summary: string;
  creditChange: number;
  runningBalance: number;
};

export type HistoryPage = { entries: HistoryEntry[]; nextCursor?: string };

/**
 * The key of page `index`: the first page has no cursor, each next one the
 * cursor of the page before; null after the last page.
 */
export function historyPageKey(accountId: string, asOf: string | null) {
  return (index: number, previous: HistoryPage | null): string | null => {
    if (previous && !previous.nextCursor) return null;
    const params = new URLSearchParams();
    if (asOf) params.set('asOf', asOf);
    if (index > 0 && previous?.nextCursor) params.set('cursor', previous.nextCursor);
    const query = params.toString();
    return `/api/staff/accounts/${encodeURIComponent(accountId)}/history${query ? `?${query}` : ''}`;
  };
}

export const getHistoryPage = (key: string) => api.get<HistoryPage>(key);

/**
 * An account's events, oldest first, up to asOf (RFC 3339) when given; more
 * pages come with setSize. The hook's own mutate() reloads every loaded page.
 */
export function useAccountHistory(accountId: string, asOf: string | null) {
  return useSWRInfinite<HistoryPage>(historyPageKey(accountId, asOf), getHistoryPage, revalidateOnShow);
}
