import useSWR, { type SWRConfiguration } from 'swr';
import { accountKeys } from '@/lib/account-data';
import { api } from '@/lib/api-client';

export type UsageRow = {
  metric: string;
  today: number;
  thisWeek: number;
  thisMonth: number;
  total: number;
};

export type UsageStatistics = {
  /** Credits used this month. */
  creditsUsed: number;
  rows: UsageRow[];
};

export const usageStatisticsKey = accountKeys.usageStatistics;

export const getUsageStatistics = () => api.get<UsageStatistics>(usageStatisticsKey);

/** `options` can make a screen follow the ledger live (`liveRefresh` in lib/swr-config). */
export function useUsageStatistics(options?: SWRConfiguration<UsageStatistics>) {
  return useSWR<UsageStatistics>(usageStatisticsKey, getUsageStatistics, options);
}
