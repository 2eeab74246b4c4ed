import { api } from '@/lib/api-client';

export type SimulatedOutcome = 'succeeded' | 'failed';

export type SimulatedConfirmResponse = { status: string; message?: string };

/** Development only: the simulated provider's stand-in for confirmPayment. */
export const confirmSimulatedPayment = (clientSecret: string, outcome: SimulatedOutcome) =>
  api.post<SimulatedConfirmResponse>('/api/dev/payments/confirm', { clientSecret, outcome });
