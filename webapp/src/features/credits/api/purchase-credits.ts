import { api } from '@/lib/api-client';

export type PurchaseCreditsResponse = { clientSecret: string; message?: string; amountCents: number };

export const purchaseCredits = (creditAmount: number) =>
  api.post<PurchaseCreditsResponse>('/api/credits/purchase', { creditAmount });
