import { useCallback } from 'react';
import { accountKeys, useRefetchAccount } from '@/lib/account-data';
import { api } from '@/lib/api-client';

export type ClientSecretResponse = { clientSecret: string; message?: string };

/** 409 while a subscription runs (active, cancelling or past due). */
export const createSubscription = () => api.post<ClientSecretResponse>('/api/subscription/create');

/**
 * A new subscription: `create` asks for its first payment (nothing changes
 * until it is paid); `onPaid`, once the payment succeeded, refetches the
 * status and balance (profile) and the transactions it changed.
 */
export function useCreateSubscription() {
  const refetch = useRefetchAccount();
  const onPaid = useCallback(() => refetch(accountKeys.profile, accountKeys.transactions), [refetch]);
  return { create: createSubscription, onPaid };
}

/** Active: cancelling until the period's end. Past due: ends at once. */
export const cancelSubscription = () => api.post<{ message: string }>('/api/subscription/cancel');

/** Cancels, then refetches the status (profile). */
export function useCancelSubscription() {
  const refetch = useRefetchAccount();
  return async () => {
    const response = await cancelSubscription();
    await refetch(accountKeys.profile);
    return response;
  };
}

/** Undoes a pending cancellation (cancelling → active); 409 when there is none. */
export const resumeSubscription = () => api.post<{ message: string }>('/api/subscription/resume');

/** Resumes, then refetches the status (profile). */
export function useResumeSubscription() {
  const refetch = useRefetchAccount();
  return async () => {
    const response = await resumeSubscription();
    await refetch(accountKeys.profile);
    return response;
  };
}

/**
 * Where the seller manages billing: Stripe's Billing Portal, or with the
 * simulated provider the webapp's /dev/billing-portal. 409 before the
 * seller ever started a checkout.
 */
export const createBillingPortalSession = () => api.post<{ url: string }>('/api/subscription/portal');
