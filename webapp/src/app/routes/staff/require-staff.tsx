import { Outlet } from 'react-router';
import { useAuth } from '@/lib/auth';
import NotFoundRoute from '../not-found';

/**
 * The staff area exists only for staff, as the signed-in user says
 * (`isStaff`): everyone else gets the same not-found screen as any unknown
 * address, as the API answers them 404.
 */
export default function RequireStaff() {
  const { user } = useAuth();
  return user?.isStaff ? <Outlet /> : <NotFoundRoute />;
}
