import useSWR, { type SWRConfiguration } from 'swr';
import { accountKeys } from '@/lib/account-data';
import { api } from '@/lib/api-client';

export type SubscriptionStatus = 'active' | 'inactive' | 'cancelling' | 'cancelled' | 'past_due';

/** The profile's subscriptionStatus as the app reads it: any unknown or missing status counts as inactive (spec section 4). */
export function normalizeStatus(status: string | null | undefined): SubscriptionStatus {
  switch (status) {
    case 'active':
    case 'cancelling':
    case 'cancelled':
    case 'past_due':
      return status;
    default:
      return 'inactive';
  }
}

/**
 * The signed-in seller's own account (GET /api/user/profile), read beside the
 * session like the user (get-user.ts): the app layer and several features show it.
 */
export type Profile = {
  email: string;
  isVerified: boolean;
  subscriptionStatus: string | null;
  /** ISO date while active (the next billing date), else null. */
  subscriptionRenewalDate: string | null;
  /** RFC 3339 while cancelling: premium access lasts until then. Else null. */
  subscriptionEndsAt?: string | null;
  /** The plan's benefits (the software download) are available: the server's rule. */
  premiumAccess: boolean;
  /** A new subscription may start (none is running): the server's rule. */
  canSubscribe: boolean;
  apiKey: string;
  creditsAvailable: number;
  /** Credits owed after a refund or a lost dispute of credits already spent; the next grant repays them first. */
  creditDebt?: number;
  /** True while a payment dispute is open: the desktop API refuses to spend. */
  spendingFrozen?: boolean;
  /** A low-balance alert stands: credits fell below the seller's threshold and have not recovered (issue 33). */
  lowBalance?: boolean;
  listingsCreated: number;
  veroChecks: number;
  /** RFC 3339: when credits were last spent (an API request, listing or VeRO check); null before the first. */
  lastSpendAt?: string | null;
};

export const profileKey = accountKeys.profile;

export const getProfile = () => api.get<Profile>(profileKey);

/** `options` can make a screen follow the ledger live (`liveRefresh` in lib/swr-config). */
export function useProfile(options?: SWRConfiguration<Profile>) {
  return useSWR<Profile>(profileKey, getProfile, options);
}
