import { useCallback } from 'react';
import { z } from '@/lib/zod';
import { accountKeys, useRefetchAccount } from '@/lib/account-data';
import { api } from '@/lib/api-client';
import { formatCents } from '@/lib/format';
import type { Plans } from './get-plans';

export type PurchaseCreditsResponse = { clientSecret: string; message?: string; amountCents: number };

export const purchaseCredits = (creditAmount: number) =>
  api.post<PurchaseCreditsResponse>('/api/credits/purchase', { creditAmount });

/**
 * A credit purchase: `purchase` asks for its payment (nothing changes until
 * it is paid); `onPaid`, once the payment succeeded, refetches the balance
 * (profile) and the transactions it changed.
 */
export function usePurchaseCredits() {
  const refetch = useRefetchAccount();
  const onPaid = useCallback(() => refetch(accountKeys.profile, accountKeys.transactions), [refetch]);
  return { purchase: purchaseCredits, onPaid };
}

/** The credit purchase dialog's form: a package's credits, or a custom count as typed. */
export type CreditChoice = { package: number | null; custom: string };

const noChoice = 'Please select a package or enter a valid amount.';

/**
 * The dialog's validation, within the catalogue's bounds (GET /api/plans):
 * a package, or a custom whole number from minCustomCredits to
 * maxCustomCredits. Nothing chosen fails on `package`, a bad custom count on
 * `custom` (its message shows under the field).
 */
export function creditChoiceSchema(plans: Pick<Plans, 'minCustomCredits' | 'minCustomPriceCents' | 'maxCustomCredits'>) {
  return z
    .object({ package: z.number().int().positive().nullable(), custom: z.string() })
    .superRefine((choice, ctx) => {
      if (choice.package !== null) return;
      const raw = choice.custom.trim();
      if (raw === '') {
        ctx.addIssue({ code: 'custom', path: ['package'], message: noChoice });
        return;
      }
      const credits = Number(raw);
      let message: string | null = null;
      if (!/^\d+$/.test(raw) || !Number.isSafeInteger(credits) || credits <= 0) message = noChoice;
      else if (credits < plans.minCustomCredits) {
        message = `The minimum purchase is ${plans.minCustomCredits} credits (${formatCents(plans.minCustomPriceCents)}).`;
      } else if (credits > plans.maxCustomCredits) {
        message = `The maximum purchase is ${plans.maxCustomCredits.toLocaleString('en-US')} credits.`;
      }
      if (message) ctx.addIssue({ code: 'custom', path: ['custom'], message });
    });
}

/** The credits a valid choice buys. */
export const creditsOf = (choice: CreditChoice) => choice.package ?? Number(choice.custom.trim());
