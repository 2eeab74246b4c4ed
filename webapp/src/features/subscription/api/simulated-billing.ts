import { api } from '@/lib/api-client';

export type SimulationResponse = { status: string; message?: string };

/**
 * Development only (the simulated provider): ends the current billing cycle
 * as Stripe's next invoice would. On a past due subscription it retries the
 * open invoice: `succeeded` pays it and the subscription is active again.
 */
export const advanceSimulatedCycle = (outcome: 'succeeded' | 'failed') =>
  api.post<SimulationResponse>('/api/dev/subscription/advance-cycle', { outcome });
