import useSWR, { type SWRConfiguration } from 'swr';
import { api } from '@/lib/api-client';

export type SubscriptionStatus = 'active' | 'inactive' | 'cancelled' | 'past_due';

export type Profile = {
  email: string;
  isVerified: boolean;
  subscriptionStatus: string | null;
  /** ISO date or null. */
  subscriptionRenewalDate: string | null;
  apiKey: string;
  creditsAvailable: number;
  listingsCreated: number;
  veroChecks: number;
};

export const profileKey = '/api/user/profile';

export const getProfile = () => api.get<Profile>(profileKey);

/** `options` can make a screen follow the ledger live (`liveRefresh` in lib/swr-config). */
export function useProfile(options?: SWRConfiguration<Profile>) {
  return useSWR<Profile>(profileKey, getProfile, options);
}

/** Any unknown or missing status counts as inactive (spec section 4). */
export function normalizeStatus(status: string | null | undefined): SubscriptionStatus {
  switch (status) {
    case 'active':
    case 'cancelled':
    case 'past_due':
      return status;
    default:
      return 'inactive';
  }
}
