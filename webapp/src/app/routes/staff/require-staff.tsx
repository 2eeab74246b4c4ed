import { Navigate, Outlet, useLocation } from 'react-router';
import { useAuth } from '@/lib/auth';
import { needsStaffMfa } from '@/lib/auth-api/types';
import { paths } from '@/config/paths';
import NotFoundRoute from '../not-found';

/**
 * The staff area exists only for staff, as the signed-in user says
 * (`isStaff`): everyone else gets the same not-found screen as any unknown
 * address, as the API answers them 404. Staff whose session has not passed
 * the second factor go to its prompt first (the API answers them 403
 * staff_mfa_required), and come back after.
 */
export default function RequireStaff() {
  const { user } = useAuth();
  const location = useLocation();
  if (!user?.isStaff) return <NotFoundRoute />;
  if (needsStaffMfa(user) && location.pathname !== paths.staffMfa) {
    return <Navigate to={paths.staffMfa} replace state={{ from: location.pathname + location.search }} />;
  }
  return <Outlet />;
}
