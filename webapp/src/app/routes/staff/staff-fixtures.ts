import type { User } from '@/lib/auth-api/types';
import type { Handler } from '@/testing/fake-api';
import type { BalanceReport } from '@/features/staff-accounts/api/get-account-balance';
import type { Comparison } from '@/features/staff-accounts/api/get-account-comparison';
import type { HistoryEntry, HistoryPage } from '@/features/staff-accounts/api/get-account-history';
import type { AccountView } from '@/features/staff-accounts/api/get-account';
import type { AccountSummary } from '@/features/staff-accounts/api/search-accounts';

/** Fixtures and fake endpoints of the staff console's tests. */

/**
 * Imports the lazy modules a staff screen renders, for a beforeAll: on a
 * busy machine the first import in a worker can outlast a test's timeout.
 */
export const loadStaffRoutes = () =>
  Promise.all([
    import('@/app/layouts/app-layout'),
    import('../not-found'),
    import('../auth/login'),
    import('../app/dashboard'),
    import('./require-staff'),
    import('./search'),
    import('./account'),
    import('./mfa'),
    import('./audit'),
  ]);

export const SELLER_ID = '0b6f4c1e-7a51-4c5e-9d0b-1f2a3b4c5d6e';
export const STAFF_ID = '9e8d7c6b-5a49-4f3e-8d2c-1b0a99887766';
export const accountPath = `/api/staff/accounts/${SELLER_ID}`;

export const seller: AccountSummary = {
  id: SELLER_ID,
  email: 'seller@example.com',
  isStaff: false,
  createdAt: '2026-11-20T09:00:00Z',
  creditsAvailable: 1234,
  subscriptionStatus: 'active',
  creditDebt: 0,
  spendingFrozen: false,
};

/** The signed-in staff member, as GET /api/user and the sign-in answer give it. */
export const staffUser: User = {
  id: STAFF_ID,
  email: 'support@example.com',
  isVerified: true,
  isStaff: true,
  mfa: { required: true, enrolled: true, passed: true },
};

/** The seller as GET /api/staff/accounts/{id} answers, standing from the summary s. */
export function accountView(s: AccountSummary = seller): AccountView {
  return {
    id: s.id,
    email: s.email,
    isVerified: true,
    isStaff: s.isStaff,
    createdAt: s.createdAt,
    subscription: { status: s.subscriptionStatus, id: 'sub_1', periodEnd: '2026-12-20T09:00:00Z', endsAt: s.subscriptionEndsAt ?? null },
    creditsAvailable: s.creditsAvailable,
    creditDebt: s.creditDebt ?? 0,
    spendingFrozen: s.spendingFrozen ?? false,
    payments: [
      {
        id: 'pi_1',
        kind: 'credits',
        description: '100 credits',
        at: '2026-11-21T10:15:30Z',
        amountCents: 1000,
        credits: 100,
        status: 'partially_refunded',
        refundedCents: 300,
        refundableCents: 700,
        refundableCredits: 70,
      },
    ],
  };
}

export const support: AccountSummary = {
  id: STAFF_ID,
  email: 'support@example.com',
  isStaff: true,
  createdAt: '2026-01-02T09:00:00Z',
  creditsAvailable: 0,
  subscriptionStatus: 'inactive',
};

function entry(version: number, time: string, type: string, actor: string, summary: string, creditChange: number, runningBalance: number): HistoryEntry {
  return { version, position: 100 + version, time, type, actor, summary, creditChange, runningBalance };
}

export const registered = entry(1, '2026-11-20T09:00:00Z', 'AccountRegistered', `account:${SELLER_ID}`, 'Registered as seller@example.com', 0, 0);
export const purchased = entry(2, '2026-11-21T10:15:30Z', 'CreditsGranted', 'stripe', '100 purchase credits granted', 100, 100);
export const spent = entry(3, '2026-11-23T08:05:09Z', 'CreditsSpent', 'desktop', '5 credits spent on listing (B08N5WRWNW)', -5, 95);
export const adjusted = entry(4, '2026-11-24T12:00:00Z', 'CreditsGranted', `staff:${STAFF_ID}`, '25 adjustment credits granted: goodwill', 25, 120);

export const balanceNow: BalanceReport = {
  asOf: '2026-11-24T12:30:00Z',
  balance: 95,
  grants: [{ id: 'g1', source: 'purchase', amount: 100, remaining: 95, grantedAt: '2026-11-21T10:15:30Z' }],
};

export const consistent: Comparison = { consistent: true, differences: [], position: 103 };

export const drifted: Comparison = {
  consistent: false,
  differences: [
    { field: 'creditsAvailable', events: 95, readModel: 100 },
    { field: 'subscriptionStatus', events: 'active', readModel: 'inactive' },
  ],
  position: 103,
};

const query = (url: string, name: string) => new URL(url, 'http://localhost').searchParams.get(name);

/**
 * A signed-in staff member's endpoints: GET /api/user says isStaff, the
 * search finds the seller by email or id, the seller's history comes in
 * pages of two (cursor "p2"), and anything may be overridden.
 */
export function staffApi(overrides: Record<string, Handler> = {}): Record<string, Handler> {
  return {
    'GET /api/user': { body: staffUser },
    'GET /api/staff/accounts': ({ url }) => {
      const q = (query(url, 'q') ?? '').toLowerCase();
      return { body: [seller, support].filter((a) => a.id === q || a.email.includes(q)) };
    },
    [`GET ${accountPath}/history`]: ({ url }): { body: HistoryPage } =>
      query(url, 'cursor') === 'p2' ? { body: { entries: [spent] } } : { body: { entries: [registered, purchased], nextCursor: 'p2' } },
    [`GET ${accountPath}`]: { body: accountView() },
    [`GET ${accountPath}/balance`]: { body: balanceNow },
    [`GET ${accountPath}/comparison`]: { body: consistent },
    ...overrides,
  };
}
