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

/** A YYYY-MM-DD range of UTC days, both included; `key`, an API key's id, keeps only that key's usage. */
export type DayRange = { from: string; to: string; key?: string };

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The `days` UTC days up to today (at `now`), today included. */
export function lastDays(days: number, now: Date = new Date()): DayRange {
  const from = new Date(now);
  from.setUTCDate(from.getUTCDate() - (days - 1));
  return { from: isoDay(from), to: isoDay(now) };
}

const query = ({ from, to, key }: DayRange) => `from=${from}&to=${to}` + (key ? `&key=${encodeURIComponent(key)}` : '');

export const usageDailyKey = (range: DayRange) => `/api/usage/daily?${query(range)}`;

/** The CSV of the same days (a download, not a fetch). */
export const usageDailyCsvUrl = (range: DayRange) => `/api/usage/daily.csv?${query(range)}`;

/** Every day of `range`, oldest first, days without usage as zeros. */
export function useUsageDaily(range: DayRange, options?: SWRConfiguration<UsageDaily>) {
  const key = usageDailyKey(range);
  return useSWR<UsageDaily>(key, () => api.get<UsageDaily>(key), options);
}

/** A key usage can be filtered by (GET /api/api-keys: the seller's keys). */
export type KeyChoice = { id: string; name: string; prefix: string; mode: 'live' | 'test' };

/**
 * The seller's live keys, to filter usage by (test keys spend test credits,
 * which are not usage). The same request as the API Keys page's, so the
 * two share one cached answer.
 */
export function useKeyChoices() {
  const { data } = useSWR<KeyChoice[]>('/api/api-keys', () => api.get<KeyChoice[]>('/api/api-keys'));
  return (data ?? []).filter((k) => k.mode === 'live');
}
