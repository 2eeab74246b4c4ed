import { AuthLayout } from '@/app/layouts/auth-layout';
import { ResetRequestForm } from '@/features/auth/components/reset-request-form';

export default function ResetPasswordRoute() {
  return (
    <AuthLayout title="Reset Password" description="Enter your email and we'll send you a reset link.">
      <ResetRequestForm />
    </AuthLayout>
  );
}
