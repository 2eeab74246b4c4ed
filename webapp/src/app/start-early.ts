import { accountKeys } from '@/lib/account-data';
import { seedEarly, startEarly } from '@/lib/api-client';
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
export function startEarlyFor(pathname: string, doc: Document = document) {
  const path = pathname.toLowerCase().replace(/(.)\/+$/, '$1');
  seedEarly(pageBootstrap(doc));
  startEarly([configKey]);
  if (!signedInPages.has(path) || knownSignedOut()) return;
  startEarly([userKey, accountKeys.profile]);
  void import('./layouts/app-layout');
  if (path === paths.dashboard) {
    startEarly([accountKeys.transactions, accountKeys.usageStatistics]);
    void import('./routes/app/dashboard');
  }
}

/**
 * The answers the server put in a signed-in page (cmd/api/webapp_bootstrap.go:
 * `<script type="application/json" id="a2e-bootstrap">`, its /api/config,
 * /api/user and /api/user/profile for the request's session), so the first
 * render reads them without a round trip; startEarly then asks only for the
 * others. Read once: the element is removed.
 */
export function pageBootstrap(doc: Document): Record<string, unknown> {
  const element = doc.getElementById('a2e-bootstrap');
  if (!element) return {};
  element.remove();
  try {
    const answers: unknown = JSON.parse(element.textContent ?? '');
    return answers && typeof answers === 'object' && !Array.isArray(answers) ? (answers as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
