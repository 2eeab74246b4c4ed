import useSWR from 'swr';
import { api } from '@/lib/api-client';
import { formatCents } from '@/lib/format';

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
  maxCustomCredits: number;
};

/**
 * Why a custom amount cannot be bought, or null when it can: the server's
 * rule (internal/catalog), said before the seller reaches the checkout.
 */
export function customAmountProblem(plans: Plans, credits: number): string | null {
  if (!Number.isSafeInteger(credits) || credits <= 0) return 'Please select a package or enter a valid amount.';
  if (credits < plans.minCustomCredits) {
    return `The minimum purchase is ${plans.minCustomCredits} credits (${formatCents(plans.minCustomCredits * plans.customCreditPriceCents)}).`;
  }
  if (credits > plans.maxCustomCredits) {
    return `The maximum purchase is ${plans.maxCustomCredits.toLocaleString('en-US')} credits.`;
  }
  return null;
}

export const plansKey = '/api/plans';

export const getPlans = () => api.get<Plans>(plansKey);

export function usePlans() {
  return useSWR<Plans>(plansKey, getPlans);
}

/**
 * The price of n credits: a package's price if one matches, otherwise per
 * credit (the server's rule, catalog.PriceCents). Every total shown before
 * the server's own amount (the purchase's amountCents) comes from here.
 */
export function priceForCredits(plans: Plans, credits: number): number {
  const pkg = plans.packages.find((p) => p.credits === credits);
  return pkg ? pkg.priceCents : credits * plans.customCreditPriceCents;
}
