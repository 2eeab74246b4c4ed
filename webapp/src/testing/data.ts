import type { User } from '@/lib/auth-api/types';
import type { AppConfig } from '@/lib/app-config';
import type { Plans } from '@/features/credits/api/get-plans';
import type { Profile } from '@/lib/auth-api/get-profile';
import type { Transaction } from '@/features/transactions/api/get-transactions';
import type { Receipt } from '@/features/transactions/api/get-receipt';
import type { UsageStatistics } from '@/features/usage/api/get-usage-statistics';

export const verifiedUser: User = { id: 'u1', email: 'jane.doe@example.com', isVerified: true, isStaff: false };
export const unverifiedUser: User = { ...verifiedUser, isVerified: false };

/**
 * A profile's status fields as the server sends them for status: the
 * status with its premium access and whether a subscription may start (the
 * server's rules, domain.StatusHasPremiumAccess and StatusAllowsSubscribing,
 * written out as the fixtures' data).
 */
export function asServerSays(status: string): Pick<Profile, 'subscriptionStatus' | 'premiumAccess' | 'canSubscribe'> {
  const running = status === 'active' || status === 'cancelling' || status === 'past_due';
  return { subscriptionStatus: status, premiumAccess: status === 'active' || status === 'cancelling', canSubscribe: !running };
}

export const activeProfile: Profile = {
  email: 'jane.doe@example.com',
  isVerified: true,
  subscriptionStatus: 'active',
  subscriptionRenewalDate: '2025-03-15T12:00:00Z',
  subscriptionEndsAt: null,
  premiumAccess: true,
  canSubscribe: false,
  apiKey: 'a2e_live_abc123',
  creditsAvailable: 1234,
  creditDebt: 0,
  spendingFrozen: false,
  listingsCreated: 42,
  veroChecks: 7,
};

export const inactiveProfile: Profile = {
  ...activeProfile,
  ...asServerSays('inactive'),
  subscriptionRenewalDate: null,
  creditsAvailable: 0,
};

/** Cancelled at the end of the period: active until March 15, 2025. */
export const cancellingProfile: Profile = {
  ...activeProfile,
  ...asServerSays('cancelling'),
  subscriptionRenewalDate: null,
  subscriptionEndsAt: '2025-03-15T12:00:00Z',
};

/** The renewal payment failed. */
export const pastDueProfile: Profile = {
  ...activeProfile,
  ...asServerSays('past_due'),
  subscriptionRenewalDate: null,
  creditsAvailable: 100,
};

export const usage: UsageStatistics = {
  creditsUsed: 125,
  rows: [
    { metric: 'Credits used', today: 3, thisWeek: 17, thisMonth: 125, total: 980 },
    { metric: 'Listings created', today: 2, thisWeek: 11, thisMonth: 90, total: 700 },
    { metric: 'VeRO checks', today: 1, thisWeek: 6, thisMonth: 35, total: 280 },
  ],
};

export const transactions: Transaction[] = [
  // A paid credit purchase links our receipt; a subscription payment Stripe's hosted invoice; failed and pending neither.
  { id: 'pi_t4', transactionDate: '2025-02-20T10:00:00Z', description: 'Credit purchase: 500 credits', amount: 3999, status: 'paid', receiptUrl: 'http://localhost:8080/receipts/pi_t4' },
  { id: 't3', transactionDate: '2025-02-10T10:00:00Z', description: 'Monthly Plan', amount: 2999, status: 'pending' },
  { id: 't2', transactionDate: '2025-01-05T10:00:00Z', description: 'Credit purchase: 100 credits', amount: 999, status: 'failed' },
  { id: 'in_t1', transactionDate: '2025-01-01T10:00:00Z', description: 'Monthly Plan', amount: 2999, status: 'paid', invoiceUrl: 'https://invoice.stripe.com/i/in_t1' },
];

/** GET /api/transactions/pi_t4: the paid pack's receipt, partly refunded, paid by an auto-recharge's saved card. */
export const receipt: Receipt = {
  ...transactions[0],
  status: 'partially_refunded',
  currency: 'USD',
  credits: 500,
  refundedAmount: 800,
  paymentMethod: { brand: 'visa', last4: '4242' },
  email: 'seller@example.com',
  productName: 'Amazon to eBay Automation',
};

export const plans: Plans = {
  plan: {
    id: 'monthly',
    name: 'Monthly Plan',
    priceCents: 2999,
    credits: 500,
    interval: 'month',
    // As internal/catalog describes the plan.
    features: ['500 credits per month', 'Full software access', 'API access', 'Priority email support', 'Regular updates'],
  },
  packages: [
    { credits: 100, priceCents: 999 },
    { credits: 500, priceCents: 3999 },
    { credits: 1000, priceCents: 6999 },
  ],
  customCreditPriceCents: 10,
  minCustomCredits: 5,
  minCustomPriceCents: 50,
  maxCustomCredits: 100000,
};

export const simulatedConfig: AppConfig = {
  paymentProvider: 'simulated',
  stripePublishableKey: null,
  environment: 'development',
  productName: 'Amazon to eBay Automation',
  supportEmail: 'help@seller-tools.example',
  supportPhone: null,
  rateLimitPerMinute: 20,
  apiBaseUrl: 'https://sellers.example.com',
  planFeatures: plans.plan.features,
  minCustomCredits: 5,
  installer: {
    platform: 'windows',
    fileName: 'A2E-Automation-Setup-2.4.0.exe',
    version: '2.4.0',
    sizeBytes: 14_889_779,
    sha256: 'a3f1c2d4e5b60718293a4b5c6d7e8f90112233445566778899aabbccddeeff00',
  },
};

/** GET /api/account/spend-limits of an account that set none. */
export const noAutoRecharge = {
  enabled: false,
  thresholdCredits: 0,
  packCredits: 0,
  packAmountCents: 0,
  monthlyLimitCents: 0,
  paymentMethod: null,
  disabledReason: null,
  rechargeInFlight: false,
  needsAuthentication: false,
  rechargedThisMonthCents: 0,
};

export const noSpendLimits = {
  dailyCredits: null,
  monthlyCredits: null,
  spentToday: 0,
  spentThisMonth: 0,
  dailyResetsAt: '2025-03-02T00:00:00Z',
  monthlyResetsAt: '2025-04-01T00:00:00Z',
  dailyLimitReached: false,
  monthlyLimitReached: false,
};
