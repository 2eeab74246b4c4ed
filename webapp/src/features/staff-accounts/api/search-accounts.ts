import useSWR from 'swr';
import { api } from '@/lib/api-client';
import { live, type AccountSummary } from '@/lib/staff';

/** Null (no request) for a blank query. */
export function searchAccountsKey(query: string): string | null {
  const q = query.trim();
  return q ? `/api/staff/accounts?q=${encodeURIComponent(q)}` : null;
}

export const searchAccounts = (key: string) => api.get<AccountSummary[]>(key);

/** Up to 20 accounts by exact id or part of the email, by email. */
export function useAccountSearch(query: string) {
  return useSWR<AccountSummary[]>(searchAccountsKey(query), searchAccounts, live);
}
