import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import type { RouteObject } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { RequireAuth } from './require-auth';

function page(component: LazyExoticComponent<ComponentType>) {
  const Page = component;
  return (
    <Suspense fallback={<Spinner fullPage />}>
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
  { path: '/', element: page(Landing) },
  { path: '/login', element: page(Login) },
  { path: '/register', element: page(Register) },
  { path: '/reset-password', element: page(ResetPassword) },
  { path: '/reset-password/complete', element: page(ResetPasswordComplete) },
  { path: '/verify-email', element: page(VerifyEmail) },
  {
    element: (
      <RequireAuth>
        <Suspense fallback={<Spinner fullPage />}>
          <AppLayout />
        </Suspense>
      </RequireAuth>
    ),
    children: [
      { path: '/dashboard', element: page(Dashboard) },
      { path: '/subscription', element: page(Subscription) },
      { path: '/api-keys', element: page(ApiKeys) },
      { path: '/usage-history', element: page(Tutorials) },
      { path: '/download', element: page(Download) },
      { path: '/support', element: page(Support) },
      { path: '/transactions', element: page(Transactions) },
      { path: '/checkout', element: page(Checkout) },
      { path: '/checkout/success', element: page(CheckoutSuccess) },
      { path: '/subscribe', element: page(Subscribe) },
      { path: '/subscribe/success', element: page(SubscribeSuccess) },
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
          { index: true, element: page(StaffSearch) },
          { path: 'accounts/:id', element: page(StaffAccount) },
        ],
      },
    ],
  },
  { path: '*', element: page(NotFound) },
];
