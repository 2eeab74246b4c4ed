import useSWR from 'swr';
import { api } from '@/lib/api-client';
import { revalidateOnShow } from '@/lib/swr-config';
import type { AccountSummary } from './search-accounts';

/** A payment of the account and what can still be refunded of it. */
export type AccountPayment = {
  id: string;
  kind: 'subscription' | 'credits' | string;
  description: string;
  /** ISO time it was first recorded. */
  at: string;
  amountCents: number;
  credits: number;
  status: string;
  refundedCents: number;
  refundableCents: number;
  refundableCredits: number;
};

/** GET /api/staff/accounts/{id}: the account page's profile, standing and payments, from the events. */
export type AccountView = {
  id: string;
  email: string;
  isVerified: boolean;
  isStaff: boolean;
  /** ISO time. */
  createdAt: string;
  subscription: { status: string; id: string; periodEnd: string | null; endsAt: string | null };
  creditsAvailable: number;
  creditDebt: number;
  spendingFrozen: boolean;
  payments: AccountPayment[];
  /** The seller's spend limits, alerts and auto-recharge, with their history (issue 33). */
  settings?: AccountSettings;
};

/** What the seller set to guard their credits, as it stands, and every change of it. */
export type AccountSettings = {
  spendLimits: { dailyCredits: number | null; monthlyCredits: number | null };
  alerts: { lowBalanceCredits: number | null; expiringReminderDays: number | null };
  autoRecharge: {
    enabled: boolean;
    thresholdCredits: number;
    packCredits: number;
    packAmountCents: number;
    monthlyLimitCents: number;
    paymentMethod: { brand: string; last4: string } | null;
    disabledReason?: string;
    rechargeInFlight?: string;
    rechargedThisMonthCents: number;
  };
  history: { at: string; type: string; description: string }[];
};

export const accountKey = (accountId: string) => `/api/staff/accounts/${encodeURIComponent(accountId)}`;

export const getAccount = (key: string) => api.get<AccountView>(key);

/** One account (each read is recorded in the audit trail). */
export function useAccount(accountId: string) {
  return useSWR<AccountView>(accountKey(accountId), getAccount, revalidateOnShow);
}

/** The account as the search lists it, for the standing shown beside the balance. */
export function summaryOf(v: AccountView): AccountSummary {
  return {
    id: v.id,
    email: v.email,
    isStaff: v.isStaff,
    createdAt: v.createdAt,
    creditsAvailable: v.creditsAvailable,
    subscriptionStatus: v.subscription.status,
    creditDebt: v.creditDebt,
    spendingFrozen: v.spendingFrozen,
    subscriptionEndsAt: v.subscription.status === 'cancelling' ? v.subscription.endsAt : null,
  };
}
