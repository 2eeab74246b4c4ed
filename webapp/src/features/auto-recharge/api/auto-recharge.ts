import useSWR, { useSWRConfig, type SWRConfiguration } from 'swr';
import { z } from '@/lib/zod';
import { api } from '@/lib/api-client';
import { dollarsToCents, formatCents } from '@/lib/format';

/** GET and PUT /api/account/auto-recharge (issue 33): the settings, the saved card and what is going on. */
export type AutoRecharge = {
  enabled: boolean;
  thresholdCredits: number;
  packCredits: number;
  packAmountCents: number;
  monthlyLimitCents: number;
  paymentMethod: { brand: string; last4: string } | null;
  disabledReason: 'failed_charges' | 'payment_method_removed' | null;
  rechargeInFlight: boolean;
  needsAuthentication: boolean;
  rechargedThisMonthCents: number;
};

export const autoRechargeKey = '/api/account/auto-recharge';
export const paymentMethodPath = '/api/account/payment-method';

/** The packs a recharge may buy: the catalogue's packages. */
export const RECHARGE_PACKS = [100, 500, 1000] as const;

/** The largest threshold and monthly limit the server accepts. */
export const MAX_THRESHOLD = 10_000_000;
export const MAX_MONTHLY_LIMIT_CENTS = 10_000_000;

const wholeNumber = (what: string, max: number) =>
  z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v), `Enter a whole number of ${what}`)
    .refine((v) => Number(v) <= max, `At most ${max.toLocaleString('en-US')} ${what}`);

export const autoRechargeSchema = z.object({
  enabled: z.boolean(),
  thresholdCredits: wholeNumber('credits', MAX_THRESHOLD),
  packCredits: z.enum(['100', '500', '1000']),
  monthlyLimitDollars: z
    .string()
    .trim()
    .refine((v) => /^\d+(\.\d{1,2})?$/.test(v), 'Enter an amount in dollars, like 50 or 49.99')
    .refine((v) => (dollarsToCents(v) ?? 0) <= MAX_MONTHLY_LIMIT_CENTS, `At most ${formatCents(MAX_MONTHLY_LIMIT_CENTS, { whole: true })}`),
});

export type AutoRechargeInput = z.infer<typeof autoRechargeSchema>;

export const getAutoRecharge = () => api.get<AutoRecharge>(autoRechargeKey);

export const putAutoRecharge = (input: AutoRechargeInput) =>
  api.put<AutoRecharge>(autoRechargeKey, {
    enabled: input.enabled,
    thresholdCredits: Number(input.thresholdCredits),
    packCredits: Number(input.packCredits),
    monthlyLimitCents: dollarsToCents(input.monthlyLimitDollars) ?? 0,
  });

/** POST /api/account/payment-method: the SetupIntent's client secret for the card form. */
export const startCardSetup = () => api.post<{ clientSecret: string }>(paymentMethodPath, {});

/** POST /api/account/auto-recharge/confirmation: the payment of a recharge waiting for 3-D Secure. */
export const openRechargePayment = () =>
  api.post<{ clientSecret: string; credits: number; amountCents: number }>(`${autoRechargeKey}/confirmation`, {});

/** DELETE /api/account/payment-method. */
export const removeCard = () => api.delete<void>(paymentMethodPath);

/** `options` can make the dashboard follow the recharges without a reload (`liveRefresh`). */
export function useAutoRecharge(options?: SWRConfiguration<AutoRecharge>) {
  return useSWR<AutoRecharge>(autoRechargeKey, getAutoRecharge, options);
}

/** Saves the settings and puts the server's answer in the cache. */
export function useSaveAutoRecharge() {
  const { mutate } = useSWRConfig();
  return async (input: AutoRechargeInput) => {
    const saved = await putAutoRecharge(input);
    await mutate(autoRechargeKey, saved, { revalidate: false });
    return saved;
  };
}
