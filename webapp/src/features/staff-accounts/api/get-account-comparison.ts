import useSWR from 'swr';
import { api } from '@/lib/api-client';
import { revalidateOnShow } from '@/lib/swr-config';

export type Difference = { field: string; events: unknown; readModel: unknown };

export type Comparison = {
  consistent: boolean;
  differences: Difference[];
  /** The global position of the last event replayed. */
  position: number;
};

export const accountComparisonKey = (accountId: string) =>
  `/api/staff/accounts/${encodeURIComponent(accountId)}/comparison`;

export const getAccountComparison = (key: string) => api.get<Comparison>(key);

/** The read tables against a replay of the account's events. */
export function useAccountComparison(accountId: string) {
  return useSWR<Comparison>(accountComparisonKey(accountId), getAccountComparison, revalidateOnShow);
}
