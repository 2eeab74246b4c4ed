import { lazy, Suspense, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import type { RouteObject } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { PRODUCT_NAME } from '@/lib/constants';
import { RequireAuth } from './require-auth';

/** The document title of a page: its own name, then the product's. */
export function documentTitle(name?: string) {
  return name ? `${name} · ${PRODUCT_NAME}` : PRODUCT_NAME;
}

/** Names the browser tab while its route is shown (index.html's title is the default before the app runs). */
function DocumentTitle({ name }: { name: string }) {
  useEffect(() => {
    document.title = documentTitle(name);
  }, [name]);
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
const Checkout = lazy(() => import('./routes/app/checkout'));
const CheckoutSuccess = lazy(() => import('./routes/app/checkout-success'));
const Subscribe = lazy(() => import('./routes/app/subscribe'));
const SubscribeSuccess = lazy(() => import('./routes/app/subscribe-success'));
const NotFound = lazy(() => import('./routes/not-found'));
const RequireStaff = lazy(() => import('./routes/staff/require-staff'));
const StaffSearch = lazy(() => import('./routes/staff/search'));
const StaffAccount = lazy(() => import('./routes/staff/account'));

/**
 * Spec section 2. React Router matches paths case-insensitively and ignores
 * a trailing slash unless told otherwise; the tests hold it to that.
 */
export const routes: RouteObject[] = [
  { path: '/', element: page(Landing, '') },
  { path: '/login', element: page(Login, 'Sign In') },
  { path: '/register', element: page(Register, 'Create Account') },
  { path: '/reset-password', element: page(ResetPassword, 'Reset Password') },
  { path: '/reset-password/complete', element: page(ResetPasswordComplete, 'Choose a New Password') },
  { path: '/verify-email', element: page(VerifyEmail, 'Verify Your Email') },
  {
    element: (
      <RequireAuth>
        <Suspense fallback={<Spinner fullPage />}>
          <AppLayout />
        </Suspense>
      </RequireAuth>
    ),
    children: [
      { path: '/dashboard', element: page(Dashboard, 'Dashboard') },
      { path: '/subscription', element: page(Subscription, 'Subscription') },
      { path: '/api-keys', element: page(ApiKeys, 'API Keys') },
      { path: '/usage-history', element: page(Tutorials, 'Tutorials') },
      { path: '/download', element: page(Download, 'Download') },
      { path: '/support', element: page(Support, 'Support') },
      { path: '/transactions', element: page(Transactions, 'Transactions') },
      { path: '/checkout', element: page(Checkout, 'Checkout') },
      { path: '/checkout/success', element: page(CheckoutSuccess, 'Payment Successful') },
      { path: '/subscribe', element: page(Subscribe, 'Subscribe') },
      { path: '/subscribe/success', element: page(SubscribeSuccess, 'Subscription Successful') },
    ],
  },
  {
    // Support staff only; everyone else sees the not-found screen.
    path: '/staff',
    element: <RequireAuth>{page(RequireStaff)}</RequireAuth>,
    children: [
      {
        element: page(AppLayout),
        children: [
          { index: true, element: page(StaffSearch, 'Staff Console') },
          { path: 'accounts/:id', element: page(StaffAccount, 'Staff Console: Account') },
        ],
      },
    ],
  },
  { path: '*', element: page(NotFound, 'Page Not Found') },
];
