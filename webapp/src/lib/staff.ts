import type { SWRConfiguration } from 'swr';

/**
 * What the staff console's features (staff-accounts, staff-support,
 * staff-audit, staff-mfa) share: features do not import each other.
 */

/**
 * Staff queries refetch whenever a view shows them, unlike the app's
 * never-stale default: staff compare moments and must not read a cached
 * answer from before their own adjustment or rebuild.
 */
export const live = { revalidateIfStale: true } satisfies SWRConfiguration;

/** Times in the staff console, to the second. */
export const STAFF_TIME_FORMAT = 'MMM dd, yyyy HH:mm:ss';

const whole = new Intl.NumberFormat('en-US');

/** 1234 -> "1,234". */
export const formatCredits = (n: number) => whole.format(n);

/** One account as staff search, the account page and the support inbox show it. */
export type AccountSummary = {
  id: string;
  email: string;
  isStaff: boolean;
  /** ISO time. */
  createdAt: string;
  creditsAvailable: number;
  subscriptionStatus: string;
  /** Credits owed after a refund or a lost dispute; the next grant repays them. */
  creditDebt?: number;
  /** A payment dispute is open: the desktop API refuses to spend. */
  spendingFrozen?: boolean;
  /** RFC 3339 while the subscription is cancelling, when the server gives it. */
  subscriptionEndsAt?: string | null;
};
