import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth';
import { paths } from '@/config/paths';

/** Signed-in routes: a spinner while the session loads, then /login for visitors. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { loading, isAuthenticated } = useAuth();
  const location = useLocation();
  if (loading) return <Spinner fullPage label="Loading your session" />;
  // The whole address (query included: /checkout?credits=500), to come back to.
  const from = location.pathname + location.search + location.hash;
  if (!isAuthenticated) return <Navigate to={paths.login} replace state={{ from }} />;
  return children;
}
