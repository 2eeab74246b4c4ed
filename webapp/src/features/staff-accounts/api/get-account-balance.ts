import useSWR from 'swr';
import { api } from '@/lib/api-client';
import { revalidateOnShow } from '@/lib/swr-config';

export type Grant = {
  id: string;
  source: string;
  amount: number;
  remaining: number;
  /** ISO time; absent for credits that never expire. */
  expiresAt?: string;
  /** ISO time. */
  grantedAt: string;
};

export type BalanceReport = { asOf: string; balance: number; grants: Grant[] };

export function accountBalanceKey(accountId: string, asOf: string | null): string {
  const path = `/api/staff/accounts/${encodeURIComponent(accountId)}/balance`;
  return asOf ? `${path}?asOf=${encodeURIComponent(asOf)}` : path;
}

export const getAccountBalance = (key: string) => api.get<BalanceReport>(key);

/** The balance and grants at asOf (RFC 3339), or now; from the events alone. */
export function useAccountBalance(accountId: string, asOf: string | null) {
  return useSWR<BalanceReport>(accountBalanceKey(accountId, asOf), getAccountBalance, revalidateOnShow);
}
