// Relative, not '@/lib/format': vite.config.ts imports this file to write
// dist/routes.json, and Vite loads its config without the '@' alias.
import { centsToDollars, dollarsToCents } from '../lib/format';

/**
 * Every route of the webapp (spec section 2), in one place: the router
 * declares them, links and redirects go through them.
 */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  resetPassword: '/reset-password',
  resetPasswordComplete: '/reset-password/complete',
  verifyEmail: '/verify-email',
  contact: '/contact',
  privacy: '/privacy',
  terms: '/terms',
  /** The desktop API guide (GET /api/pages/desktop-api), linked from the API Keys page and the OpenAPI. */
  desktopApiGuide: '/docs/desktop-api',

  dashboard: '/dashboard',
  subscription: '/subscription',
  apiKeys: '/api-keys',
  /** The tutorials page (spec: /usage-history shows the tutorials). */
  tutorials: '/usage-history',
  download: '/download',
  support: '/support',
  transactions: '/transactions',
  /** A paid credit purchase's printable receipt (issue 38): GET /api/transactions/{id}. */
  receipt: (id: string) => `/receipts/${encodeURIComponent(id)}`,
  /** The seller's webhook endpoints and their delivery logs (issue 35). */
  webhooks: '/webhooks',
  checkout: '/checkout',
  checkoutSuccess: '/checkout/success',
  subscribe: '/subscribe',
  subscribeSuccess: '/subscribe/success',

  /** The simulated provider's stand-in for Stripe's customer portal (development only). */
  devBillingPortal: '/dev/billing-portal',

  staff: '/staff',
  /** The second factor: set it up the first time, then a code each session. */
  staffMfa: '/staff/mfa',
  staffAudit: '/staff/audit',
  staffAccount: (id: string) => `/staff/accounts/${encodeURIComponent(id)}`,
  /** The support inbox, and one request's thread. */
  staffSupport: '/staff/support',
  staffSupportRequest: (id: string) => `/staff/support/${encodeURIComponent(id)}`,
} as const;

/** Checkout for n credits. */
export const checkoutPath = (credits: number) => `${paths.checkout}?credits=${credits}`;

/**
 * Where a paid checkout returns. The one place the app's cents become
 * dollars in an address: spec section 8 fixes it as
 * /checkout/success?amount={dollars}&credits={n} (docs/webapp-money.md).
 */
export const checkoutSuccessPath = (credits: number, amountCents: number) =>
  `${paths.checkoutSuccess}?amount=${centsToDollars(amountCents)}&credits=${credits}`;

/**
 * The success page's reading of that address, back in cents: the amount is
 * null unless a positive dollar figure, the credits null unless a positive
 * number.
 */
export function readCheckoutSuccess(params: URLSearchParams): { amountCents: number | null; credits: number | null } {
  const credits = Number(params.get('credits'));
  return { amountCents: dollarsToCents(params.get('amount')), credits: Number.isFinite(credits) && credits > 0 ? credits : null };
}
