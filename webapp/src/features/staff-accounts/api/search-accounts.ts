import useSWR from 'swr';
import { api } from '@/lib/api-client';
import { revalidateOnShow } from '@/lib/swr-config';

/** Null (no request) for a blank query. */
export function searchAccountsKey(query: string): string | null {
  const q = query.trim();
  return q ? `/api/staff/accounts?q=${encodeURIComponent(q)}` : null;
}

/** One account as staff search and the account page show it. */
export type AccountSummary = {
  id: string;
  email: string;
  isStaff: boolean;
  /** ISO time. */
  createdAt: string;
  creditsAvailable: number;
  subscriptionStatus: string;
  /** Credits owed after a refund or a lost dispute; the next grant repays them. */
  creditDebt?: number;
  /** A payment dispute is open: the desktop API refuses to spend. */
  spendingFrozen?: boolean;
  /** RFC 3339 while the subscription is cancelling, when the server gives it. */
  subscriptionEndsAt?: string | null;
};

export const searchAccounts = (key: string) => api.get<AccountSummary[]>(key);

/** Up to 20 accounts by exact id or part of the email, by email. */
export function useAccountSearch(query: string) {
  return useSWR<AccountSummary[]>(searchAccountsKey(query), searchAccounts, revalidateOnShow);
}
