import { api } from '@/lib/api-client';

/**
 * How a simulated confirmation ends: a payment succeeds or fails; a saved
 * card (a SetupIntent) may also be one whose later charges are declined or
 * need 3-D Secure, as Stripe's test cards behave off session.
 */
export type SimulatedOutcome = 'succeeded' | 'failed' | 'charge_declines' | 'requires_authentication';

export type SimulatedConfirmResponse = { status: string; message?: string };

/**
 * Development only: the simulated provider's stand-in for Stripe.js's
 * confirmPayment and confirmSetup (POST /api/dev/payments/confirm with the
 * intent's client secret), beside lib/stripe.ts: features/payments and
 * features/auto-recharge both confirm through it.
 */
export const confirmSimulated = (clientSecret: string, outcome: SimulatedOutcome) =>
  api.post<SimulatedConfirmResponse>('/api/dev/payments/confirm', { clientSecret, outcome });
