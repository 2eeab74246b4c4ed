import { lazy, Suspense, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { useProductName } from '@/lib/app-config';
import { RequireAuth } from './require-auth';
import { RouteErrorBoundary } from './route-error';
import { paths } from '@/config/paths';

/** The document title of a page: its own name, then the product's. */
export function documentTitle(productName: string, name?: string) {
  return name ? `${name} · ${productName}` : productName;
}

/** Names the browser tab while its route is shown (index.html's title is the default before the app runs). */
function DocumentTitle({ name }: { name: string }) {
  const productName = useProductName();
  useEffect(() => {
    document.title = documentTitle(productName, name);
  }, [productName, name]);
  return null;
}

function page(component: LazyExoticComponent<ComponentType>, title?: string) {
  const Page = component;
  return (
    <Suspense fallback={<Spinner fullPage />}>
      {title !== undefined && <DocumentTitle name={title} />}
      <Page />
    </Suspense>
  );
}

const AppLayout = lazy(() => import('./layouts/app-layout'));
const Landing = lazy(() => import('./routes/landing'));
const Login = lazy(() => import('./routes/auth/login'));
const Register = lazy(() => import('./routes/auth/register'));
const ResetPassword = lazy(() => import('./routes/auth/reset-password'));
const ResetPasswordComplete = lazy(() => import('./routes/auth/reset-password-complete'));
const VerifyEmail = lazy(() => import('./routes/auth/verify-email'));
const Dashboard = lazy(() => import('./routes/app/dashboard'));
const Subscription = lazy(() => import('./routes/app/subscription'));
const ApiKeys = lazy(() => import('./routes/app/api-keys'));
const Tutorials = lazy(() => import('./routes/app/tutorials'));
const Download = lazy(() => import('./routes/app/download'));
const Support = lazy(() => import('./routes/app/support'));
const Transactions = lazy(() => import('./routes/app/transactions'));
const Receipt = lazy(() => import('./routes/app/receipt'));
const Webhooks = lazy(() => import('./routes/app/webhooks'));
const Checkout = lazy(() => import('./routes/app/checkout'));
const CheckoutSuccess = lazy(() => import('./routes/app/checkout-success'));
const Subscribe = lazy(() => import('./routes/app/subscribe'));
const SubscribeSuccess = lazy(() => import('./routes/app/subscribe-success'));
const NotFound = lazy(() => import('./routes/not-found'));
const Contact = lazy(() => import('./routes/info-page').then((m) => ({ default: m.ContactRoute })));
const Privacy = lazy(() => import('./routes/info-page').then((m) => ({ default: m.PrivacyRoute })));
const Terms = lazy(() => import('./routes/info-page').then((m) => ({ default: m.TermsRoute })));
const DesktopApiGuide = lazy(() => import('./routes/info-page').then((m) => ({ default: m.DesktopApiGuideRoute })));
const RequireSimulatedProvider = lazy(() => import('./routes/dev/require-simulated-provider'));
const BillingPortal = lazy(() => import('./routes/dev/billing-portal'));
const RequireStaff = lazy(() => import('./routes/staff/require-staff'));
const StaffSearch = lazy(() => import('./routes/staff/search'));
const StaffAccount = lazy(() => import('./routes/staff/account'));
const StaffMfa = lazy(() => import('./routes/staff/mfa'));
const StaffAudit = lazy(() => import('./routes/staff/audit'));
const StaffSupportInbox = lazy(() => import('./routes/staff/support-inbox'));
const StaffSupportRequest = lazy(() => import('./routes/staff/support-request'));

/**
 * Spec section 2. React Router matches paths case-insensitively and ignores
 * a trailing slash unless told otherwise; the tests hold it to that.
 */
export const routes: RouteObject[] = [
  { path: paths.home, element: page(Landing, '') },
  { path: paths.login, element: page(Login, 'Sign In') },
  { path: paths.register, element: page(Register, 'Create Account') },
  { path: paths.resetPassword, element: page(ResetPassword, 'Reset Password') },
  { path: paths.resetPasswordComplete, element: page(ResetPasswordComplete, 'Choose a New Password') },
  { path: paths.verifyEmail, element: page(VerifyEmail, 'Verify Your Email') },
  { path: paths.contact, element: page(Contact, 'Contact') },
  { path: paths.privacy, element: page(Privacy, 'Privacy Policy') },
  { path: paths.terms, element: page(Terms, 'Terms of Service') },
  { path: paths.desktopApiGuide, element: page(DesktopApiGuide, 'Desktop API guide') },
  {
    element: (
      <RequireAuth>
        <Suspense fallback={<Spinner fullPage />}>
          <AppLayout />
        </Suspense>
      </RequireAuth>
    ),
    children: [
      { path: paths.dashboard, element: page(Dashboard, 'Dashboard') },
      { path: paths.subscription, element: page(Subscription, 'Subscription') },
      { path: paths.apiKeys, element: page(ApiKeys, 'API Keys') },
      { path: paths.tutorials, element: page(Tutorials, 'Tutorials') },
      { path: paths.download, element: page(Download, 'Download') },
      { path: paths.support, element: page(Support, 'Support') },
      { path: paths.transactions, element: page(Transactions, 'Transactions') },
      { path: '/receipts/:paymentId', element: page(Receipt, 'Receipt') }, // paths.receipt(id)
      { path: paths.webhooks, element: page(Webhooks, 'Webhooks') },
      { path: paths.checkout, element: page(Checkout, 'Checkout') },
      { path: paths.checkoutSuccess, element: page(CheckoutSuccess, 'Payment Successful') },
      { path: paths.subscribe, element: page(Subscribe, 'Subscribe') },
      { path: paths.subscribeSuccess, element: page(SubscribeSuccess, 'Subscription Successful') },
    ],
  },
  {
    // Development with the simulated payment provider only; otherwise the
    // not-found screen.
    path: paths.devBillingPortal,
    element: <RequireAuth>{page(RequireSimulatedProvider)}</RequireAuth>,
    children: [
      {
        element: page(AppLayout),
        children: [{ index: true, element: page(BillingPortal, 'Simulated Billing Portal') }],
      },
    ],
  },
  {
    // Support staff only; everyone else sees the not-found screen.
    path: paths.staff,
    element: <RequireAuth>{page(RequireStaff)}</RequireAuth>,
    children: [
      {
        element: page(AppLayout),
        children: [
          { index: true, element: page(StaffSearch, 'Staff Console') },
          { path: 'accounts/:id', element: page(StaffAccount, 'Staff Console: Account') },
          { path: 'mfa', element: page(StaffMfa, 'Staff Console: Second Factor') },
          { path: 'audit', element: page(StaffAudit, 'Staff Console: Audit Trail') },
          { path: 'support', element: page(StaffSupportInbox, 'Staff Console: Support Inbox') },
          { path: 'support/:id', element: page(StaffSupportRequest, 'Staff Console: Support Request') },
        ],
      },
    ],
  },
  { path: '*', element: page(NotFound, 'Page Not Found') },
];

/**
 * The app's routes, inside a BrowserRouter (app/index.tsx) or a
 * MemoryRouter (the tests). Declarative routing, not a data router
 * (createBrowserRouter): the app uses no loader, action or fetcher, and
 * the data router's code was 54 KB of the entry chunk (14 KB brotli) that
 * every page parsed before its first paint (issue 38 item 2). Matching is
 * the same function (case-insensitive, trailing slash ignored), and
 * navigations are transitions in both. A page that fails while rendering
 * shows RouteErrorBoundary's screen (the data router's errorElement did).
 */
export function AppRoutes() {
  return <RouteErrorBoundary>{useRoutes(routes)}</RouteErrorBoundary>;
}
