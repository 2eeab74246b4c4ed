import useSWR, { useSWRConfig, type SWRConfiguration } from 'swr';
import { z } from '@/lib/zod';
import { api } from '@/lib/api-client';

/** GET and PUT /api/account/spend-limits: the caps, what their periods spent, and when they reset. */
export type SpendLimits = {
  dailyCredits: number | null;
  monthlyCredits: number | null;
  spentToday: number;
  spentThisMonth: number;
  dailyResetsAt: string;
  monthlyResetsAt: string;
  dailyLimitReached: boolean;
  monthlyLimitReached: boolean;
};

export const spendLimitsKey = '/api/account/spend-limits';

/** The largest limit the server accepts. */
export const MAX_SPEND_LIMIT = 10_000_000;

/** A limit as typed: empty is no limit, else a whole number of credits from 0 to MAX_SPEND_LIMIT. */
const limitField = z
  .string()
  .trim()
  .refine((v) => v === '' || /^\d+$/.test(v), 'Enter a whole number of credits, or leave it empty for no limit')
  .refine((v) => v === '' || Number(v) <= MAX_SPEND_LIMIT, `At most ${MAX_SPEND_LIMIT.toLocaleString('en-US')} credits`);

export const spendLimitsSchema = z.object({ dailyCredits: limitField, monthlyCredits: limitField });

export type SpendLimitsInput = z.infer<typeof spendLimitsSchema>;

const toLimit = (v: string) => (v.trim() === '' ? null : Number(v.trim()));

export const getSpendLimits = () => api.get<SpendLimits>(spendLimitsKey);

export const putSpendLimits = (input: SpendLimitsInput) =>
  api.put<SpendLimits>(spendLimitsKey, {
    dailyCredits: toLimit(input.dailyCredits),
    monthlyCredits: toLimit(input.monthlyCredits),
  });

/** `options` can make the dashboard follow the desktop client's spends (`liveRefresh`). */
export function useSpendLimits(options?: SWRConfiguration<SpendLimits>) {
  return useSWR<SpendLimits>(spendLimitsKey, getSpendLimits, options);
}

/** Saves the limits and puts the server's answer in the cache. */
export function useSaveSpendLimits() {
  const { mutate } = useSWRConfig();
  return async (input: SpendLimitsInput) => {
    const saved = await putSpendLimits(input);
    await mutate(spendLimitsKey, saved, { revalidate: false });
    return saved;
  };
}
