import { Navigate, useLocation, useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import { MfaPrompt } from '@/features/staff-mfa/components/mfa-prompt';
import { useAuth } from '@/lib/auth';
import { userKey } from '@/lib/auth-api/get-user';
import { needsStaffMfa, type User } from '@/lib/auth-api/types';
import { paths } from '@/config/paths';

/** The second factor: set up at the first sign-in, then a code each session; then back to the console. */
export default function StaffMfaRoute() {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from;
  const next = from && from.startsWith(paths.staff) && from !== paths.staffMfa ? from : paths.staff;

  if (!needsStaffMfa(user)) return <Navigate to={next} replace />;

  const onPassed = async (passed: User) => {
    await mutate(userKey, passed, { revalidate: false });
    navigate(next, { replace: true });
  };

  return (
    <div className="page">
      <h1 className="page-title">Staff console: second factor</h1>
      <MfaPrompt enrolled={!!user?.mfa?.enrolled} onPassed={onPassed} />
    </div>
  );
}
