import { useState } from 'react';
import { Navigate } from 'react-router';
import { AuthLayout } from '@/app/layouts/auth-layout';
import { Spinner } from '@/components/ui/spinner';
import { VerifyEmailForm } from '@/features/auth/components/verify-email-form';
import type { User } from '@/lib/auth-api/types';
import { useAuth } from '@/lib/auth';
import { paths } from '@/config/paths';

export default function VerifyEmailRoute() {
  const { user, loading } = useAuth();
  if (loading) return <Spinner fullPage label="Loading your session" />;
  if (!user) return <Navigate to={paths.login} replace />;
  return <VerifyEmailScreen user={user} />;
}

function VerifyEmailScreen({ user }: { user: User }) {
  // Verified on arrival: straight to the dashboard. Verified here: the form
  // shows its success text and redirects after 2 s.
  const [verifiedOnArrival] = useState(user.isVerified);
  if (verifiedOnArrival) return <Navigate to={paths.dashboard} replace />;
  return (
    <AuthLayout title="Verify Your Email">
      <VerifyEmailForm email={user.email} />
    </AuthLayout>
  );
}
