import { api } from '@/lib/api-client';

export type ClientSecretResponse = { clientSecret: string; message?: string };

/** 409 while a subscription runs (active, cancelling or past due). */
export const createSubscription = () => api.post<ClientSecretResponse>('/api/subscription/create');

/** Active: cancelling until the period's end. Past due: ends at once. */
export const cancelSubscription = () => api.post<{ message: string }>('/api/subscription/cancel');

/** Undoes a pending cancellation (cancelling → active); 409 when there is none. */
export const resumeSubscription = () => api.post<{ message: string }>('/api/subscription/resume');

/**
 * Where the seller manages billing: Stripe's Billing Portal, or with the
 * simulated provider the webapp's /dev/billing-portal. 409 before the
 * seller ever started a checkout.
 */
export const createBillingPortalSession = () => api.post<{ url: string }>('/api/subscription/portal');
