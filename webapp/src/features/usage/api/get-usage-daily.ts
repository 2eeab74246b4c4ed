import useSWR, { type SWRConfiguration } from 'swr';
import { api } from '@/lib/api-client';

/** One UTC day of usage (GET /api/usage/daily). */
export type UsageDay = {
  /** YYYY-MM-DD, a UTC day. */
  date: string;
  /** Credits spent. */
  credits: number;
  listings: number;
  veroChecks: number;
  /** Credits taken back by refunds. */
  refunded: number;
};

export type UsageDaily = { days: UsageDay[] };

/** A YYYY-MM-DD range of UTC days, both included. */
export type DayRange = { from: string; to: string };

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The `days` UTC days up to today (at `now`), today included. */
export function lastDays(days: number, now: Date = new Date()): DayRange {
  const from = new Date(now);
  from.setUTCDate(from.getUTCDate() - (days - 1));
  return { from: isoDay(from), to: isoDay(now) };
}

const query = ({ from, to }: DayRange) => `from=${from}&to=${to}`;

export const usageDailyKey = (range: DayRange) => `/api/usage/daily?${query(range)}`;

/** The CSV of the same days (a download, not a fetch). */
export const usageDailyCsvUrl = (range: DayRange) => `/api/usage/daily.csv?${query(range)}`;

/** Every day of `range`, oldest first, days without usage as zeros. */
export function useUsageDaily(range: DayRange, options?: SWRConfiguration<UsageDaily>) {
  const key = usageDailyKey(range);
  return useSWR<UsageDaily>(key, () => api.get<UsageDaily>(key), options);
}
