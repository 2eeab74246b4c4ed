import { z } from '@/lib/zod';
import { api } from '@/lib/api-client';
import type { StaffActionResponse } from './create-refund';

const REASON = 'A reason of 3 to 500 characters is required';

export const cancelSchema = z.object({
  when: z.enum(['periodEnd', 'now'], { message: 'Choose when the subscription ends' }),
  reason: z.string().trim().min(3, REASON).max(500, REASON),
});

export type CancelForm = z.input<typeof cancelSchema>;
export type CancelInput = z.output<typeof cancelSchema>;

/** Cancels the account's subscription through the payment provider, at the period end or now. */
export const cancelSubscription = (accountId: string, input: CancelInput) =>
  api.post<StaffActionResponse>(`/api/staff/accounts/${encodeURIComponent(accountId)}/subscription/cancel`, {
    atPeriodEnd: input.when === 'periodEnd',
    reason: input.reason,
  });
