/**
 * Every route of src/config/paths.ts, as the journeys visit them: the
 * public ones (and an unknown path) and the rest, signed in. The width
 * check (mobile.e2e.ts) and the built app's route check (routes.e2e.ts)
 * both go through these lists; mobile.e2e.ts fails when a path of
 * paths.ts is missing here.
 */
import { paths } from '../src/config/paths.ts';

export const NO_SUCH_PAGE = '/no-such-page';

export const publicRoutes = [
  paths.home,
  paths.login,
  paths.register,
  paths.resetPassword,
  paths.resetPasswordComplete,
  paths.contact,
  paths.privacy,
  paths.terms,
  paths.desktopApiGuide,
  NO_SUCH_PAGE,
];

// Every other route; the staff ones show a seller the not-found screen.
export const signedInRoutes = [
  paths.dashboard,
  paths.subscription,
  paths.apiKeys,
  paths.tutorials,
  paths.download,
  paths.support,
  paths.transactions,
  // An unknown payment: the receipt page's not-found state (its h1 "Receipt not found").
  paths.receipt('00000000-0000-0000-0000-000000000000'),
  paths.webhooks,
  `${paths.checkout}?credits=100`,
  `${paths.checkoutSuccess}?amount=9.99&credits=100`,
  paths.subscribe,
  paths.subscribeSuccess,
  paths.verifyEmail,
  paths.devBillingPortal,
  paths.staff,
  paths.staffMfa,
  paths.staffAudit,
  paths.staffAccount('00000000-0000-0000-0000-000000000000'),
  paths.staffSupport,
  paths.staffSupportRequest('00000000-0000-0000-0000-000000000000'),
];
