import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { api } from '@/lib/api-client';

/**
 * The account's queries (their GET paths, the SWR keys) that the mutations
 * of several features change. Features read them from here, since features
 * do not import each other.
 */
export const accountKeys = {
  profile: '/api/user/profile',
  transactions: '/api/transactions',
  usageStatistics: '/api/usage-statistics',
} as const;

export type AccountKey = (typeof accountKeys)[keyof typeof accountKeys];

/**
 * What every mutation hook calls once its change is done: refetches `keys`
 * into the cache and resolves with the fresh answers. It fetches whether or
 * not a mounted screen reads them (SWR's plain `mutate(key)` revalidates
 * only mounted readers, and with `revalidateIfStale: false` a later page
 * would show the old cache), and keeps what is shown until the answer
 * comes. A failed refetch keeps what is cached, as a failed background
 * refetch does (`undefined` in its place).
 */
export function useRefetchAccount() {
  const { mutate } = useSWRConfig();
  return useCallback(
    (...keys: AccountKey[]) =>
      Promise.all(
        keys.map((key) => mutate(key, api.get<unknown>(key), { revalidate: false }).catch(() => undefined)),
      ),
    [mutate],
  );
}
