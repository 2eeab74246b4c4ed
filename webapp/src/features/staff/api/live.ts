import type { SWRConfiguration } from 'swr';

/**
 * Staff queries refetch whenever a view shows them, unlike the app's
 * never-stale default: staff compare moments and must not read a cached
 * answer from before their own adjustment or rebuild.
 */
export const live = { revalidateIfStale: true } satisfies SWRConfiguration;
