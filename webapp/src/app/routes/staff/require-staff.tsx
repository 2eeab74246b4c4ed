import { Outlet } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { useStaffAccess } from '@/features/staff/api/get-staff-access';
import NotFoundRoute from '../not-found';

/**
 * The staff area exists only for staff: everyone else gets the same
 * not-found screen as any unknown address, as the API answers them 404.
 */
export default function RequireStaff() {
  const { data: isStaff, error } = useStaffAccess();
  if (error) {
    return (
      <main className="page narrow">
        <p className="alert alert-error" role="alert">
          Could not check your access. Reload the page to try again.
        </p>
      </main>
    );
  }
  if (isStaff === undefined) return <Spinner fullPage label="Checking your access" />;
  return isStaff ? <Outlet /> : <NotFoundRoute />;
}
