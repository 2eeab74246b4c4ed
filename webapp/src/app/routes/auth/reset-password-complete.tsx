import { useSearchParams } from 'react-router';
import { AuthLayout } from '@/app/layouts/auth-layout';
import { CompleteResetForm } from '@/features/auth/components/complete-reset-form';

export default function ResetPasswordCompleteRoute() {
  const [params] = useSearchParams();
  return (
    <AuthLayout title="Set a New Password">
      <CompleteResetForm token={params.get('token')} />
    </AuthLayout>
  );
}
