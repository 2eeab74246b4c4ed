import { useSWRConfig } from 'swr';
import { accountKeys, useRefetchAccount } from '@/lib/account-data';
import { api } from '@/lib/api-client';
import { getProfile, profileKey } from '@/lib/auth-api/get-profile';

export type SimulationResponse = { status: string; message?: string };

/**
 * Development only (the simulated provider): ends the current billing cycle
 * as Stripe's next invoice would. On a past due subscription it retries the
 * open invoice: `succeeded` pays it and the subscription is active again.
 */
export const advanceSimulatedCycle = (outcome: 'succeeded' | 'failed') =>
  api.post<SimulationResponse>('/api/dev/subscription/advance-cycle', { outcome });

/**
 * The simulated portal's "Pay Open Invoice". Only a past due subscription
 * has an open invoice: a stale page (the invoice paid in another tab) must
 * not end or renew the cycle, so the status is refetched first (a failure
 * throws) and null answered when there is nothing to pay. After paying, the
 * status, balance and invoices (profile, transactions) are refetched.
 */
export function usePayOpenInvoice() {
  const { mutate } = useSWRConfig();
  const refetch = useRefetchAccount();
  return async (): Promise<SimulationResponse | null> => {
    const fresh = await mutate(profileKey, getProfile(), { revalidate: false });
    if (fresh?.subscriptionStatus !== 'past_due') return null;
    const response = await advanceSimulatedCycle('succeeded');
    await refetch(accountKeys.profile, accountKeys.transactions);
    return response;
  };
}
