import useSWR from 'swr';
import { api } from '@/lib/api-client';

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
  maxCustomCredits: number;
};

export const plansKey = '/api/plans';

export const getPlans = () => api.get<Plans>(plansKey);

export function usePlans() {
  return useSWR<Plans>(plansKey, getPlans);
}

/** The price of n credits: a package's price if one matches, otherwise per credit. */
export function priceForCredits(plans: Plans, credits: number): number {
  const pkg = plans.packages.find((p) => p.credits === credits);
  return pkg ? pkg.priceCents : credits * plans.customCreditPriceCents;
}
