import { AuthLayout } from '@/app/layouts/auth-layout';
import { RegisterForm } from '@/features/auth/components/register-form';

export default function RegisterRoute() {
  return (
    <AuthLayout title="Create Elite Account" description="Join our community of successful sellers.">
      <RegisterForm />
    </AuthLayout>
  );
}
