import { accountKeys } from '@/lib/account-data';
import { startEarly } from '@/lib/api-client';
import { configKey } from '@/lib/app-config';
import { knownSignedOut, userKey } from '@/lib/auth-api/get-user';
import { paths } from '@/config/paths';

const signedInPages = new Set<string>([
  paths.dashboard,
  paths.subscription,
  paths.apiKeys,
  paths.tutorials,
  paths.download,
  paths.support,
  paths.transactions,
  paths.checkout,
  paths.checkoutSuccess,
  paths.subscribe,
  paths.subscribeSuccess,
]);

/**
 * Issue 38, item 2: called by main.tsx before the first render. On a
 * signed-in page it starts the session, the profile and (on the dashboard)
 * the dashboard's data, and loads the layout's and the page's code, all at
 * once, where they used to come in turn (session → layout → page → data).
 * Nothing is started for a browser the server said is signed out.
 */
export function startEarlyFor(pathname: string) {
  const path = pathname.toLowerCase().replace(/(.)\/+$/, '$1');
  startEarly([configKey]);
  if (!signedInPages.has(path) || knownSignedOut()) return;
  startEarly([userKey, accountKeys.profile]);
  void import('./layouts/app-layout');
  if (path === paths.dashboard) {
    startEarly([accountKeys.transactions, accountKeys.usageStatistics]);
    void import('./routes/app/dashboard');
  }
}
