import type { SWRConfiguration } from 'swr';
import { api, ApiError } from './api-client';

/**
 * Generic query: the key is the GET path (spec section 7). A 401 gives null
 * instead of an error, so "not signed in" is data, not a failure.
 */
export async function getOrNull<T>(path: string): Promise<T | null> {
  try {
    return await api.get<T>(path);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/**
 * The product data's key (features/credits/api/get-plans.ts): public, so it
 * outlives a session (lib/auth.tsx).
 */
export const plansKey = '/api/plans';

/** Spec section 7: never stale, no refetch on focus or interval, no retries (but see liveRefresh). */
export const swrConfig: SWRConfiguration = {
  fetcher: (path: string) => api.get(path),
  revalidateIfStale: false,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  refreshInterval: 0,
  shouldRetryOnError: false,
};

/**
 * Queries that refetch whenever a view shows them, unlike the never-stale
 * default: the staff console's, since staff compare moments and must not
 * read a cached answer from before their own adjustment or rebuild.
 */
export const revalidateOnShow = { revalidateIfStale: true } satisfies SWRConfiguration;

/**
 * The live ledger's exception to the rule above: the dashboard's balance,
 * usage and transactions follow the desktop client's spends without a
 * reload, refetched every few seconds while the tab is visible and at once
 * when it regains focus.
 */
export const LIVE_REFRESH_MS = 5000;

export const liveRefresh = {
  refreshInterval: LIVE_REFRESH_MS,
  revalidateOnFocus: true,
  revalidateOnReconnect: true,
} satisfies SWRConfiguration;
