import useSWR from 'swr';
import { api } from '@/lib/api-client';
import { plansKey } from '@/lib/swr-config';

/**
 * The product data (GET /api/plans): the subscription plan and the credit
 * packages, priced by the server in cents.
 */
export type Plan = {
  id: string;
  name: string;
  priceCents: number;
  credits: number;
  interval: string;
  features: string[];
};

export type CreditPackage = { credits: number; priceCents: number };

export type Plans = {
  plan: Plan;
  packages: CreditPackage[];
  customCreditPriceCents: number;
  /** The smallest custom amount: the provider's minimum charge ($0.50). */
  minCustomCredits: number;
  /** The price of minCustomCredits ($0.50). */
  minCustomPriceCents: number;
  maxCustomCredits: number;
};

/** Spec section 9: "Buy More Credits" after a purchase offers this many. */
export const DEFAULT_BUY_MORE_CREDITS = 100;

export const getPlans = () => api.get<Plans>(plansKey);

export function usePlans() {
  return useSWR<Plans>(plansKey, getPlans);
}
